// libpq, PostgreSQL's C client library (Debian: libpq-dev, pkg-config libpq).
#include <libpq-fe.h>

// The JavaScript client of `tipc serve`: one ES module, no dependencies, built on `fetch`
// (browsers, Node 18+, Deno, Bun). Types: tipc.d.ts beside it. Routes: docs/api.md.

/** An error answer of the service (`{"error":{"code","message"}}`), or a failed request. */
export class TipcError extends Error {
  /**
   * @param {number} status the HTTP status, or 0 when no answer came (`code` is then "network")
   * @param {string} code the service's error code, e.g. "unknown-tip"
   * @param {string} message the service's message
   * @param {number | undefined} retryAfter seconds, from `Retry-After`
   */
  constructor(status, code, message, retryAfter) {
    super(message);
    this.name = "TipcError";
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** A client of one `tipc serve`. */
export class TipcClient {
  /**
   * @param {string} baseURL e.g. "https://tips.example.com"
   * @param {object} [options]
   * @param {string} [options.token] an API key, sent as `Authorization: Bearer TOKEN`
   * @param {number} [options.retries] how often a 503 is sent again (default 3)
   * @param {number} [options.retryDelayMs] the first wait before sending again (default 200; doubled each time)
   * @param {number} [options.maximumRetryDelayMs] the longest wait (default 5000)
   * @param {typeof fetch} [options.fetch] the fetch to use (default: the global one)
   * @param {(ms: number) => Promise<void>} [options.sleep] how to wait (default: a timer)
   */
  constructor(baseURL, options = {}) {
    if (typeof baseURL !== "string" || baseURL === "") throw new TypeError("baseURL must be the service's URL");
    this.baseURL = baseURL.replace(/\/+$/, "");
    this.token = options.token;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.maximumRetryDelayMs = options.maximumRetryDelayMs ?? 5000;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The routes of one user. */
  user(id) {
    return new TipcUser(this, id);
  }

  /** `GET /healthz`: `{status: "ok", version}` when the service and its store answer. */
  health() {
    return this.request("GET", "/healthz");
  }

  /**
   * `GET /v1/pack`: the rule pack's bytes and its tag; with the tag of the pack already held,
   * `{notModified: true, etag}` when it is still current.
   */
  async pack(options = {}) {
    const headers = options.etag ? { "If-None-Match": options.etag } : {};
    const response = await this.send("GET", "/v1/pack", undefined, headers);
    const etag = response.headers.get("ETag") ?? undefined;
    if (response.status === 304) return { notModified: true, etag: options.etag };
    return { notModified: false, etag, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  /** `PUT /v1/pack` (admin key): replaces the pack for every user. */
  replacePack(bytes) {
    return this.request("PUT", "/v1/pack", bytes, { "Content-Type": "application/vnd.tipc.tippack" });
  }

  /**
   * `GET /v1/report` (admin key): every experiment's arms and every other tip's figures, as
   * `tipc report --format json` writes them; `experiment` limits it to one experiment, `at`
   * (a `Date` or an ISO-8601 string) counts what is dated up to that instant.
   */
  report(options = {}) {
    const parts = [];
    if (options.experiment !== undefined) parts.push(["experiment", options.experiment]);
    if (options.at !== undefined) parts.push(["at", options.at instanceof Date ? options.at.toISOString() : String(options.at)]);
    const search = parts.length === 0 ? "" : "?" + parts.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    return this.request("GET", `/v1/report${search}`);
  }

  /** Sends a request and answers its JSON body; an error answer throws a `TipcError`. */
  async request(method, path, body, headers = {}) {
    const response = await this.send(method, path, body, headers);
    const text = await response.text();
    return text === "" ? null : JSON.parse(text);
  }

  /** Sends a request, again after a 503 (the service did not run it), and checks the status. */
  async send(method, path, body, headers = {}) {
    const all = { ...headers };
    if (this.token) all.Authorization = `Bearer ${this.token}`;
    let payload = body;
    if (body !== undefined && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
      payload = JSON.stringify(body);
      all["Content-Type"] = "application/json";
    }
    for (let attempt = 0; ; attempt += 1) {
      let response;
      try {
        response = await this.fetch(this.baseURL + path, { method, headers: all, body: payload });
      } catch (error) {
        throw new TipcError(0, "network", `no answer from ${this.baseURL}: ${error?.message ?? error}`);
      }
      if (response.ok || response.status === 304) return response;
      const failure = await TipcClient.error(response);
      if (response.status !== 503 || attempt >= this.retries) throw failure;
      const backoff = Math.min(this.retryDelayMs * 2 ** attempt, this.maximumRetryDelayMs);
      const asked = failure.retryAfter !== undefined ? failure.retryAfter * 1000 : 0;
      await this.sleep(Math.min(Math.max(backoff, asked), this.maximumRetryDelayMs));
    }
  }

  static async error(response) {
    const header = response.headers.get("Retry-After");
    const retryAfter = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
    let code = `http-${response.status}`;
    let message = `${response.status} ${response.statusText}`;
    try {
      const document = JSON.parse(await response.text());
      if (document?.error?.code) code = document.error.code;
      if (document?.error?.message) message = document.error.message;
    } catch {
      // Not the service's JSON error (a proxy's page): the status says what happened.
    }
    return new TipcError(response.status, code, message, retryAfter);
  }
}

/** The routes of one user (`client.user(id)`). */
export class TipcUser {
  constructor(client, id) {
    if (typeof id !== "string" || id === "") throw new TypeError("a user id is a non-empty string");
    this.client = client;
    this.id = id;
    this.path = `/v1/users/${encodeURIComponent(id)}`;
  }

  /**
   * `GET …/tips`: every tip (or the one `tip` names) with its status, whether to show it now
   * and its texts in `locale`, placeholders filled from `values`.
   */
  async tips(options = {}) {
    const document = await this.client.request("GET", `${this.path}/tips${query(options)}`);
    return document.tips;
  }

  /** The one tip (or instance, `"newTrail[42]"`) `id` names. */
  async tip(id, options = {}) {
    const [tip] = await this.tips({ ...options, tip: id });
    return tip;
  }

  /** `POST …/events/{event}`: donates the event; answers `{id, date}` once it is durable. */
  donate(event, options = {}) {
    const body = {};
    if (options.value !== undefined) body.value = options.value;
    if (options.date !== undefined) body.date = options.date instanceof Date ? options.date.toISOString() : options.date;
    return this.client.request("POST", `${this.path}/events/${encodeURIComponent(event)}`, body);
  }

  /**
   * `POST …/events`: donates every event of `donations` (`{event, value?, date?}` each) in one
   * transaction, or none of them; answers `[{id, date}…]` in the same order once durable.
   */
  async donateBatch(donations) {
    const body = {
      donations: donations.map(({ event, value, date }) => {
        const donation = { event };
        if (value !== undefined) donation.value = value;
        if (date !== undefined) donation.date = date instanceof Date ? date.toISOString() : date;
        return donation;
      }),
    };
    const answer = await this.client.request("POST", `${this.path}/events`, body);
    return answer.donations;
  }

  /** `PUT …/parameters/{name}`: sets the parameter; answers `{name, value}`. */
  setParameter(name, value) {
    return this.client.request("PUT", `${this.path}/parameters/${encodeURIComponent(name)}`, { value });
  }

  /** `POST …/tips/{tip}/displays`: the app showed the tip (for `milliseconds`); answers the tip. */
  recordDisplay(tip, options = {}) {
    const body = options.milliseconds !== undefined ? { milliseconds: options.milliseconds } : {};
    return this.client.request("POST", `${this.tipPath(tip, "displays")}${query(options)}`, body);
  }

  /** `POST …/tips/{tip}/invalidate`: e.g. `"actionPerformed"` or `"tipClosed"`; answers the tip. */
  invalidate(tip, reason, options = {}) {
    return this.client.request("POST", `${this.tipPath(tip, "invalidate")}${query(options)}`, { reason });
  }

  /** `POST …/tips/{tip}/reset`: eligible again; answers the tip. */
  reset(tip, options = {}) {
    return this.client.request("POST", `${this.tipPath(tip, "reset")}${query(options)}`);
  }

  /**
   * `POST …/tips/{tip}/actions/{action}`: the user tapped the tip's action (for analytics; it
   * changes no status). The tap gets an id and a date once, here, so that sending it again after
   * a 503 records it once; answers `{id, tip, action, date}`.
   * @param {{id?: string, date?: Date | string}} [options] the tap's id (default: 32 random hex digits) and date (default: now)
   */
  recordAction(tip, action, options = {}) {
    const date = options.date ?? new Date();
    const body = { id: options.id ?? randomID(), date: date instanceof Date ? date.toISOString() : date };
    return this.client.request("POST", `${this.path}/tips/${encodeURIComponent(tip)}/actions/${encodeURIComponent(action)}`, body);
  }

  /** `POST …/sync`: merges a device's snapshot (`tipc store export`'s shape); answers the merged one. */
  sync(snapshot = {}) {
    return this.client.request("POST", `${this.path}/sync`, snapshot);
  }

  /** `GET …/groups/{group}`: the tip the group offers now, or null when it offers none. */
  async groupTip(group, options = {}) {
    const answer = await this.client.request("GET", `${this.path}/groups/${encodeURIComponent(group)}${query(options)}`);
    return answer.tip;
  }

  /** `GET …/export`: every record of the user, as `tipc store export` writes a store. */
  export() {
    return this.client.request("GET", `${this.path}/export`);
  }

  /** `DELETE /v1/users/{user}`: deletes every record of the user. */
  async delete() {
    await this.client.request("DELETE", this.path);
  }

  tipPath(tip, action) {
    return `${this.path}/tips/${encodeURIComponent(tip)}/${action}`;
  }
}

/** 128 random bits as 32 lowercase hex digits (the form of the service's own record ids). */
function randomID() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The query of the tip routes: `tip`, `locale` and `value.NAME` for each placeholder value. */
function query(options) {
  const parts = [];
  if (options.tip !== undefined) parts.push(["tip", options.tip]);
  if (options.locale !== undefined) parts.push(["locale", options.locale]);
  for (const [name, value] of Object.entries(options.values ?? {})) {
    parts.push([`value.${name}`, value instanceof Date ? value.toISOString() : String(value)]);
  }
  if (parts.length === 0) return "";
  return "?" + parts.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

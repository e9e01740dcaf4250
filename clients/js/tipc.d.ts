// Types of tipc.js, the JavaScript client of `tipc serve` (docs/api.md).

/** The service's error codes, and "network" when no answer came. */
export type TipcErrorCode =
  | "bad-json" | "wrong-type" | "missing-key" | "unexpected-key" | "wrong-key-type" | "wrong-placeholder-type"
  | "unknown-member" | "wrong-parameter-type" | "value-not-allowed" | "wrong-field-type" | "unknown-field"
  | "missing-field" | "non-finite-double" | "missing-value" | "missing-reason" | "unknown-reason" | "bad-snapshot"
  | "bad-user" | "bad-path" | "unauthorized" | "forbidden" | "not-found" | "unknown-tip" | "unknown-event"
  | "unknown-parameter" | "unknown-group" | "unknown-action" | "invalid-action" | "method-not-allowed" | "collision" | "body-too-large" | "invalid-pack"
  | "missing-donations" | "missing-event" | "date-in-future" | "tip-not-available" | "too-many-records"
  | "store-unavailable" | "stopping" | "network"
  | (string & {});

/** An error answer of the service, or a request that got no answer (`status` 0). */
export class TipcError extends Error {
  readonly status: number;
  readonly code: TipcErrorCode;
  /** Seconds, from the answer's `Retry-After`. */
  readonly retryAfter: number | undefined;
  constructor(status: number, code: TipcErrorCode, message: string, retryAfter?: number);
}

export interface TipcClientOptions {
  /** An API key, sent as `Authorization: Bearer TOKEN`. */
  token?: string;
  /** How often a 503 (a request the service did not run) is sent again; default 3. */
  retries?: number;
  /** The first wait before sending again, in ms (default 200), doubled each time. */
  retryDelayMs?: number;
  /** The longest wait, in ms (default 5000). */
  maximumRetryDelayMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** A parameter's or payload field's value: Bool, Int, Double, String; a Date or Duration as a string. */
export type TipcValue = boolean | number | string;

export type TipStatus = "pending" | "available" | `invalidated(${string})`;

export interface TipImage { symbol?: string; asset?: string }
export interface TipAction { id: string; title: string }

/** A tip as `GET …/tips` answers it. */
export interface Tip {
  id: string;
  /** The instance's key, for a keyed tip. */
  key?: number | string;
  /** The experiment the tip is in, when it is in one: the texts, image and actions are then the user's arm's. */
  experiment?: string;
  /** The user's arm in `experiment`, present with it. A hidden arm's tip never has `shouldDisplay` true. */
  arm?: string;
  status: TipStatus;
  shouldDisplay: boolean;
  title: string;
  message: string | null;
  image: TipImage | null;
  actions: TipAction[];
  /** The placeholders the texts declare, when they declare any. */
  placeholders?: string[];
  /** Why the tip is not displayed now, as `tipc explain` says it; present when `shouldDisplay` is false. */
  reason?: string;
}

export interface TipQuery {
  /** A locale tag ("de-CH"); default: the pack's default locale. */
  locale?: string;
  /** Values of the texts' placeholders, by name. */
  values?: Record<string, string | number | boolean | Date>;
}

export interface Donation { id: string; date: string }

/** One donation of a batch (`donateBatch`). */
export interface PendingDonation { event: string; value?: Record<string, TipcValue>; date?: Date | string }

/** A tap on a tip's action (`recordAction`). */
export interface ActionTap { id: string; tip: string; action: string; date: string }

export type InvalidationReason = "actionPerformed" | "tipClosed" | "displayCountExceeded" | "displayDurationExceeded";

/** `tipc store export`'s document. */
export interface Snapshot {
  donations?: { id: string; event: string; date: string; value?: Record<string, TipcValue> }[];
  parameters?: Record<string, TipcValue>;
  tips?: Record<string, unknown>;
  /** By event: the instant up to which its donations are deleted. */
  donationDeletions?: Record<string, string>;
  records?: Record<string, unknown>;
}

/** A 95% interval, as fractions: [low, high]. */
export type Interval = [number, number];

export interface ReportArm {
  name: string;
  weight: number;
  assigned: number;
  exposed: number;
  displays: number;
  actions: Record<string, number>;
  closes: number;
  converted: number;
  conversionRate: number | null;
  interval: Interval | null;
  difference?: { value: number; interval: Interval; pValue: number };
  tooFewUsers: boolean;
  verdict?: "better" | "worse" | "inconclusive" | "tooFewUsers";
}

/** `GET /v1/report`: what `tipc report --format json` writes. */
export interface Report {
  experiments: {
    name: string;
    tip: string;
    goal: string | null;
    sampleRatio: { pValue: number | null; mismatch: boolean };
    arms: ReportArm[];
  }[];
  tips: {
    id: string;
    usersShown: number;
    displays: number;
    actions: Record<string, number>;
    closes: number;
    invalidations: Record<string, number>;
    converted?: number;
  }[];
}

export type PackAnswer =
  | { notModified: true; etag: string | undefined }
  | { notModified: false; etag: string | undefined; bytes: Uint8Array };

export class TipcClient {
  constructor(baseURL: string, options?: TipcClientOptions);
  user(id: string): TipcUser;
  health(): Promise<{ status: "ok"; version: string }>;
  pack(options?: { etag?: string }): Promise<PackAnswer>;
  replacePack(bytes: Uint8Array): Promise<{ etag: string; tips: number }>;
  report(options?: { experiment?: string; at?: Date | string }): Promise<Report>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export class TipcUser {
  readonly id: string;
  tips(options?: TipQuery & { tip?: string }): Promise<Tip[]>;
  tip(id: string, options?: TipQuery): Promise<Tip | undefined>;
  donate(event: string, options?: { value?: Record<string, TipcValue>; date?: Date | string }): Promise<Donation>;
  /** All of them in one transaction, or none; answers them in the order sent. */
  donateBatch(donations: PendingDonation[]): Promise<Donation[]>;
  setParameter(name: string, value: TipcValue): Promise<{ name: string; value: TipcValue }>;
  recordDisplay(tip: string, options?: TipQuery & { milliseconds?: number }): Promise<Tip>;
  invalidate(tip: string, reason: InvalidationReason, options?: TipQuery): Promise<Tip>;
  reset(tip: string, options?: TipQuery): Promise<Tip>;
  /** A tap on an action the tip declares; its id and date are made once, so a retry is the same tap. */
  recordAction(tip: string, action: string, options?: { id?: string; date?: Date | string }): Promise<ActionTap>;
  sync(snapshot?: Snapshot): Promise<Snapshot>;
  /** The tip the group offers now; null when it offers none. */
  groupTip(group: string, options?: TipQuery): Promise<Tip | null>;
  export(): Promise<Snapshot>;
  delete(): Promise<void>;
}

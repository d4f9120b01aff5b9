// Instance settings. Names follow Forgejo's app.ini sections and keys; every setting can be set in an
// app.ini file (`--config`, CAIRN_CONFIG) or by an environment variable CAIRN__<SECTION>__<KEY>, a dot
// in a section name becoming `_` (`[service.explore]` is `SERVICE_EXPLORE`), the variable winning. A bad
// value stops the start naming its variable, or its file, line, section and key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ini from 'ini';
import { parseDuration } from './model/duration.ts';

type Kind = 'bool' | 'int' | 'string' | 'url';
interface SettingDef {
  kind: Kind;
  default: string;
}

const SETTINGS = {
  /** app.ini's keys before any section (Forgejo's environment names them `__DEFAULT__`). */
  DEFAULT: {
    /** The instance's name: the `description` of GET /api/healthz. */
    APP_NAME: { kind: 'string', default: 'cairn' },
  },
  SERVER: {
    HTTP_ADDR: { kind: 'string', default: '0.0.0.0' },
    HTTP_PORT: { kind: 'int', default: '3000' },
    ROOT_URL: { kind: 'url', default: '' },
    APP_DATA_PATH: { kind: 'string', default: './data' },
    SSH_DOMAIN: { kind: 'string', default: 'localhost' },
    SSH_PORT: { kind: 'int', default: '22' },
    SSH_USER: { kind: 'string', default: 'git' },
    /** The built-in SSH server (Forgejo's START_SSH_SERVER): off while empty; `0` picks a free port. */
    SSH_LISTEN_PORT: { kind: 'string', default: '' },
    SSH_LISTEN_HOST: { kind: 'string', default: '0.0.0.0' },
    /** The Git LFS server (`<repo>.git/info/lfs/...`, LFS objects in `{R}/media/*`, git-lfs-authenticate). */
    LFS_START_SERVER: { kind: 'bool', default: 'false' },
    /** How long a token from `git-lfs-authenticate` is valid (a Go duration). */
    LFS_HTTP_AUTH_EXPIRY: { kind: 'string', default: '24h' },
    /** Largest LFS object accepted, in bytes; 0 is no limit. */
    LFS_MAX_FILE_SIZE: { kind: 'int', default: '0' },
    LFS_LOCKS_PAGING_NUM: { kind: 'int', default: '50' },
    OFFLINE_MODE: { kind: 'bool', default: 'true' },
    /**
     * Forgejo's: how long, after SIGTERM or SIGINT, requests and git operations in flight may take to
     * finish before their connections are cut (a Go duration; lib/runtime/shutdown.ts).
     */
    GRACEFUL_HAMMER_TIME: { kind: 'string', default: '60s' },
    /**
     * Worker processes serving the one HTTP (and SSH) port on PostgreSQL (lib/runtime/workers.ts): 0, the
     * default, is one per available core; 1 is a single process. The embedded database is always one.
     */
    WORKERS: { kind: 'int', default: '0' },
  },
  DATABASE: {
    URL: { kind: 'string', default: '' },
    /**
     * Forgejo's way of naming the database, used when URL is empty: DB_TYPE `postgres` with HOST
     * (`host[:port]`, or a socket directory), NAME, USER, PASSWD and SSL_MODE becomes the URL.
     */
    DB_TYPE: { kind: 'string', default: '' },
    HOST: { kind: 'string', default: '' },
    NAME: { kind: 'string', default: '' },
    USER: { kind: 'string', default: '' },
    PASSWD: { kind: 'string', default: '' },
    SSL_MODE: { kind: 'string', default: 'disable' },
    /**
     * Connections to PostgreSQL: twice the CPUs this process may use, from 2 to 10. More
     * backends than the machine runs at once only queue in PostgreSQL: on 2 CPUs, 10 connections
     * served `GET {R}` about a third slower than 4, with more CPU per answer on both sides.
     */
    POOL_MAX: { kind: 'int', default: String(Math.min(10, Math.max(2, 2 * os.availableParallelism()))) },
    /**
     * Bounds on every wait for PostgreSQL (Go durations, `0` for none): opening a connection, waiting
     * for a free one in the pool, and one statement (PostgreSQL's `statement_timeout`, and the same
     * wait on the client's side for a server that does not answer at all). Past one, the request
     * answers 503 (lib/db/outage.ts).
     */
    CONNECT_TIMEOUT: { kind: 'string', default: '5s' },
    POOL_TIMEOUT: { kind: 'string', default: '5s' },
    STATEMENT_TIMEOUT: { kind: 'string', default: '10s' },
  },
  API: {
    ENABLE_SWAGGER: { kind: 'bool', default: 'true' },
    MAX_RESPONSE_ITEMS: { kind: 'int', default: '50' },
    DEFAULT_PAGING_NUM: { kind: 'int', default: '30' },
    DEFAULT_GIT_TREES_PER_PAGE: { kind: 'int', default: '1000' },
    DEFAULT_MAX_BLOB_SIZE: { kind: 'int', default: '10485760' },
    /** MiB one request may buffer as a JSON, text or form body (lib/http/request-body.ts); larger is 413. */
    MAX_BODY_SIZE: { kind: 'int', default: '16' },
  },
  FEDERATION: {
    ENABLED: { kind: 'bool', default: 'false' },
  },
  /**
   * Answers of the table's `cached` rows kept across requests while the database shows no change
   * (lib/http/answer-cache.ts). `ANSWERS_MAX_MB` bounds their bytes; `ANSWERS_MAX_AGE` how long one is
   * kept at most (a Go duration).
   */
  CACHE: {
    ANSWERS: { kind: 'bool', default: 'true' },
    ANSWERS_MAX_MB: { kind: 'int', default: '32' },
    ANSWERS_MAX_AGE: { kind: 'string', default: '60s' },
  },
  SERVICE: {
    ENABLE_USER_HEATMAP: { kind: 'bool', default: 'true' },
    REQUIRE_SIGNIN_VIEW: { kind: 'bool', default: 'false' },
    ENABLE_REVERSE_PROXY_AUTHENTICATION_API: { kind: 'bool', default: 'false' },
    ENABLE_BASIC_AUTHENTICATION: { kind: 'bool', default: 'true' },
    NO_REPLY_ADDRESS: { kind: 'string', default: '' },
    DEFAULT_KEEP_EMAIL_PRIVATE: { kind: 'bool', default: 'false' },
  },
  SERVICE_EXPLORE: {
    REQUIRE_SIGNIN_VIEW: { kind: 'bool', default: 'false' },
    DISABLE_USERS_PAGE: { kind: 'bool', default: 'false' },
  },
  QUOTA: {
    ENABLED: { kind: 'bool', default: 'false' },
    /** Comma list of quota groups for users in no group (Forgejo's [quota] DEFAULT_GROUPS). */
    DEFAULT_GROUPS: { kind: 'string', default: '' },
  },
  REPOSITORY: {
    ROOT: { kind: 'string', default: '' },
    DEFAULT_BRANCH: { kind: 'string', default: 'main' },
    DISABLE_STARS: { kind: 'bool', default: 'false' },
    DISABLE_FORKS: { kind: 'bool', default: 'false' },
    ENABLE_FLAGS: { kind: 'bool', default: 'false' },
    FORCE_PRIVATE: { kind: 'bool', default: 'false' },
    DISABLE_MIGRATIONS: { kind: 'bool', default: 'false' },
    DISABLE_MIRRORS: { kind: 'bool', default: 'false' },
    DISABLE_HTTP_GIT: { kind: 'bool', default: 'false' },
  },
  MIGRATIONS: {
    ALLOW_LOCALNETWORKS: { kind: 'bool', default: 'false' },
    ALLOWED_DOMAINS: { kind: 'string', default: '' },
    BLOCKED_DOMAINS: { kind: 'string', default: '' },
  },
  /**
   * Forgejo's [webhook]: destinations (empty = external hosts only), TLS checking, per-delivery timeout
   * in seconds. DELIVER_ATTEMPTS and DELIVER_BACKOFF are cairn's: how many times a failed delivery is
   * tried in all (1 = never retried, as Forgejo) and the first wait in seconds, doubled after each try.
   */
  WEBHOOK: {
    ALLOWED_HOST_LIST: { kind: 'string', default: '' },
    SKIP_TLS_VERIFY: { kind: 'bool', default: 'false' },
    DELIVER_TIMEOUT: { kind: 'int', default: '5' },
    DELIVER_ATTEMPTS: { kind: 'int', default: '3' },
    DELIVER_BACKOFF: { kind: 'int', default: '30' },
  },
  /**
   * Forgejo's [cron.cleanup_hook_task_table]: removes finished hook tasks, either those finished more
   * than OLDER_THAN ago (`OlderThan`) or all but each hook's NUMBER_TO_KEEP newest (`PerWebhook`).
   */
  CRON_CLEANUP_HOOK_TASK_TABLE: {
    ENABLED: { kind: 'bool', default: 'true' },
    SCHEDULE: { kind: 'string', default: '@midnight' },
    CLEANUP_TYPE: { kind: 'string', default: 'OlderThan' },
    OLDER_THAN: { kind: 'string', default: '168h' },
    NUMBER_TO_KEEP: { kind: 'int', default: '10' },
  },
  SECURITY: {
    SECRET_KEY: { kind: 'string', default: '' },
    DISABLE_WEBHOOKS: { kind: 'bool', default: 'false' },
    DISABLE_GIT_HOOKS: { kind: 'bool', default: 'true' },
    DISABLE_QUERY_AUTH_TOKEN: { kind: 'bool', default: 'false' },
    REVERSE_PROXY_AUTHENTICATION_USER: { kind: 'string', default: 'X-WEBAUTH-USER' },
    /** Forgejo's: proxies whose X-Forwarded-For names the client (lib/http/client-address.ts), and how many of its entries to trust. */
    REVERSE_PROXY_TRUSTED_PROXIES: { kind: 'string', default: '127.0.0.0/8,::1/128' },
    REVERSE_PROXY_LIMIT: { kind: 'int', default: '1' },
  },
  /** Failed authentications allowed per WINDOW seconds before 429 (lib/auth/limits.ts). */
  SECURITY_LOGIN_LIMIT: {
    ENABLED: { kind: 'bool', default: 'true' },
    WINDOW: { kind: 'int', default: '900' },
    PER_ACCOUNT_ADDRESS: { kind: 'int', default: '20' },
    PER_ADDRESS: { kind: 'int', default: '200' },
    PER_ACCOUNT: { kind: 'int', default: '1000' },
  },
  /**
   * API requests allowed per WINDOW seconds, per signed-in user and per client address of anonymous
   * callers (lib/http/api-limit.ts); off by default. Over the limit: 429 with Retry-After.
   */
  API_RATE_LIMIT: {
    ENABLED: { kind: 'bool', default: 'false' },
    WINDOW: { kind: 'int', default: '3600' },
    PER_USER: { kind: 'int', default: '5000' },
    PER_ADDRESS: { kind: 'int', default: '1000' },
  },
  ATTACHMENT: {
    ENABLED: { kind: 'bool', default: 'true' },
    MAX_SIZE: { kind: 'int', default: '2048' },
    MAX_FILES: { kind: 'int', default: '5' },
    ALLOWED_TYPES: {
      kind: 'string',
      default:
        '.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip',
    },
  },
  /** Forgejo's [repository.release]: an empty list accepts every file type for release assets. */
  REPOSITORY_RELEASE: {
    ALLOWED_TYPES: { kind: 'string', default: '' },
  },
  ACTIONS: {
    ENABLED: { kind: 'bool', default: 'true' },
  },
  /** Forgejo's [ui] REACTIONS: the reactions users may give, a comma list (see `listSetting`). */
  UI: {
    REACTIONS: { kind: 'string', default: '+1, -1, laugh, hooray, confused, heart, rocket, eyes' },
  },
  LOG: {
    LEVEL: { kind: 'string', default: 'info' },
  },
  /**
   * Forgejo's [metrics]: `GET /metrics` in Prometheus's text format (lib/runtime/metrics.ts), off by
   * default; TOKEN, when set, is the Bearer token a scrape must send. The two ENABLED_ISSUE_BY_* add
   * Forgejo's per-label and per-repository issue gauges.
   */
  METRICS: {
    ENABLED: { kind: 'bool', default: 'false' },
    TOKEN: { kind: 'string', default: '' },
    ENABLED_ISSUE_BY_LABEL: { kind: 'bool', default: 'false' },
    ENABLED_ISSUE_BY_REPOSITORY: { kind: 'bool', default: 'false' },
  },
} as const satisfies Record<string, Record<string, SettingDef>>;

type Settings = typeof SETTINGS;
type Value<D extends SettingDef> = D['kind'] extends 'bool' ? boolean : D['kind'] extends 'int' ? number : string;
export type Config = {
  -readonly [S in keyof Settings]: {
    -readonly [K in keyof Settings[S]]: Settings[S][K] extends SettingDef ? Value<Settings[S][K]> : never;
  };
} & {
  /** AppURL: ROOT_URL, always ending in `/`. */
  appUrl: string;
  /** AppSubURL: the path part of AppURL without a trailing slash. */
  appSubUrl: string;
  repoRoot: string;
  dataPath: string;
  /** SERVER.SSH_LISTEN_PORT as a number, or null when the SSH server is off. */
  sshListenPort: number | null;
  /** SERVER.LFS_HTTP_AUTH_EXPIRY in milliseconds. */
  lfsAuthExpiryMs: number;
  /** CACHE.ANSWERS_MAX_AGE in milliseconds. */
  answersMaxAgeMs: number;
  /** DATABASE.CONNECT_TIMEOUT, POOL_TIMEOUT and STATEMENT_TIMEOUT in milliseconds (0: no bound). */
  databaseTimeouts: DatabaseTimeouts;
  /** SERVER.GRACEFUL_HAMMER_TIME in milliseconds. */
  gracefulHammerMs: number;
  /** CAIRN__ variables that name no known setting. */
  unknown: string[];
  /** The app.ini read, if any (absolute). */
  configFile: string | null;
  /** Sections and keys of the app.ini that cairn does not read, with their lines. */
  fileNotices: FileNotice[];
};

export class ConfigError extends Error {}

export interface DatabaseTimeouts {
  connectMs: number;
  acquireMs: number;
  statementMs: number;
}

export interface FileNotice {
  file: string;
  line: number;
  section: string;
  key: string | null;
  message: string;
}

/**
 * Settings from, in order of precedence: `overrides` (the environment-variable names without the
 * CAIRN__ prefix: `{ 'QUOTA__ENABLED': 'true' }`), the CAIRN__ variables of `env`, the app.ini `file`
 * (by default CAIRN_CONFIG of `env`), the defaults.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Record<string, string> = {},
  file: string | null = env.CAIRN_CONFIG || null,
): Config {
  const fromFile = file === null ? null : readAppIni(file);
  /** Where a setting's value came from, for messages: its variable, or its file, line, section and key. */
  const origin: Record<string, string> = {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(SETTINGS)) {
    out[section] = {};
    for (const [key, def] of Object.entries(keys) as [string, SettingDef][]) {
      const name = `${section}__${key}`;
      const variable = `CAIRN__${name}`;
      const inFile = fromFile?.values.get(name);
      const raw = overrides[name] ?? env[variable] ?? inFile?.value ?? def.default;
      origin[name] = overrides[name] === undefined && env[variable] === undefined && inFile ? inFile.where : variable;
      out[section][key] = parse(origin[name], def.kind, raw);
    }
  }
  const where = (section: keyof Settings, key: string) => origin[`${section}__${key}`]!;
  const cfg = out as unknown as Config;
  cfg.configFile = fromFile?.file ?? null;
  cfg.fileNotices = fromFile?.notices ?? [];
  // Unknown names are reported, not fatal: an operator may set what a later version reads.
  cfg.unknown = Object.keys(env).filter((name) => {
    if (!name.startsWith('CAIRN__')) return false;
    const [section, key] = name.slice(7).split('__');
    return !(section in SETTINGS) || !(key in SETTINGS[section as keyof Settings]);
  });
  const port = cfg.SERVER.HTTP_PORT;
  if (port < 0 || port > 65535) throw new ConfigError(`${where('SERVER', 'HTTP_PORT')}: ${port} is not a port number`);
  const root = cfg.SERVER.ROOT_URL || `http://localhost:${port || 3000}/`;
  cfg.appUrl = root.endsWith('/') ? root : `${root}/`;
  cfg.appSubUrl = new URL(cfg.appUrl).pathname.replace(/\/$/, '');
  cfg.dataPath = path.resolve(cfg.SERVER.APP_DATA_PATH);
  cfg.sshListenPort = sshPort(where('SERVER', 'SSH_LISTEN_PORT'), cfg.SERVER.SSH_LISTEN_PORT);
  const expiry = parseDuration(cfg.SERVER.LFS_HTTP_AUTH_EXPIRY);
  if (expiry === null || expiry <= 0)
    throw new ConfigError(
      `${where('SERVER', 'LFS_HTTP_AUTH_EXPIRY')}: "${cfg.SERVER.LFS_HTTP_AUTH_EXPIRY}" is not a positive duration (such as 24h or 90m)`,
    );
  cfg.lfsAuthExpiryMs = expiry;
  const answersAge = parseDuration(cfg.CACHE.ANSWERS_MAX_AGE);
  if (answersAge === null || answersAge <= 0)
    throw new ConfigError(
      `${where('CACHE', 'ANSWERS_MAX_AGE')}: "${cfg.CACHE.ANSWERS_MAX_AGE}" is not a positive duration (such as 60s or 5m)`,
    );
  cfg.answersMaxAgeMs = answersAge;
  const timeout = (key: 'CONNECT_TIMEOUT' | 'POOL_TIMEOUT' | 'STATEMENT_TIMEOUT') => {
    const ms = parseDuration(cfg.DATABASE[key]);
    if (ms === null || ms < 0)
      throw new ConfigError(`${where('DATABASE', key)}: "${cfg.DATABASE[key]}" is not a duration (such as 5s or 500ms, 0 for none)`);
    return Math.round(ms);
  };
  cfg.databaseTimeouts = {
    connectMs: timeout('CONNECT_TIMEOUT'),
    acquireMs: timeout('POOL_TIMEOUT'),
    statementMs: timeout('STATEMENT_TIMEOUT'),
  };
  const hammer = parseDuration(cfg.SERVER.GRACEFUL_HAMMER_TIME);
  if (hammer === null || hammer < 0)
    throw new ConfigError(
      `${where('SERVER', 'GRACEFUL_HAMMER_TIME')}: "${cfg.SERVER.GRACEFUL_HAMMER_TIME}" is not a duration (such as 60s or 2m)`,
    );
  cfg.gracefulHammerMs = hammer;
  if (cfg.SERVER.WORKERS < 0) throw new ConfigError(`${where('SERVER', 'WORKERS')}: must be 0 (one per core) or a number of processes`);
  if (cfg.CACHE.ANSWERS_MAX_MB < 0) throw new ConfigError(`${where('CACHE', 'ANSWERS_MAX_MB')}: must be 0 or more`);
  if (cfg.SERVER.LFS_MAX_FILE_SIZE < 0)
    throw new ConfigError(`${where('SERVER', 'LFS_MAX_FILE_SIZE')}: must be 0 (no limit) or a number of bytes`);
  cfg.repoRoot = cfg.REPOSITORY.ROOT ? path.resolve(cfg.REPOSITORY.ROOT) : path.join(cfg.dataPath, 'forgejo-repositories');
  if (!cfg.SERVICE.NO_REPLY_ADDRESS) cfg.SERVICE.NO_REPLY_ADDRESS = `noreply.${new URL(cfg.appUrl).hostname}`;
  // Forgejo's [log] LEVEL names (Info, Warn, Critical, None) read as pino's.
  const level = cfg.LOG.LEVEL.toLowerCase();
  cfg.LOG.LEVEL = level === 'critical' ? 'fatal' : level === 'none' ? 'silent' : level;
  if (!/^(trace|debug|info|warn|error|fatal|silent)$/.test(cfg.LOG.LEVEL))
    throw new ConfigError(`${where('LOG', 'LEVEL')}: unknown level ${cfg.LOG.LEVEL}`);
  if (!cfg.DATABASE.URL) cfg.DATABASE.URL = databaseUrl(cfg.DATABASE, where);
  checkWebhookSettings(cfg, where);
  return cfg;
}

type Where = (section: keyof Settings, key: string) => string;

/**
 * The PostgreSQL URL of Forgejo's [database] keys, or '' (the embedded database) when DB_TYPE is empty.
 * A socket directory as HOST goes in the URL's host part, percent-encoded, as libpq reads it.
 */
function databaseUrl(db: Config['DATABASE'], where: Where): string {
  const type = db.DB_TYPE.toLowerCase();
  if (type === '') {
    const set = (['HOST', 'NAME', 'USER', 'PASSWD'] as const).find((k) => db[k] !== '');
    if (set)
      throw new ConfigError(
        `${where('DATABASE', set)}: is set but DB_TYPE is not: set DB_TYPE = postgres (or leave [database] empty for the embedded database)`,
      );
    return '';
  }
  if (type !== 'postgres') {
    const known = ['sqlite3', 'mysql', 'mssql'].includes(type);
    throw new ConfigError(
      `${where('DATABASE', 'DB_TYPE')}: ${known ? `${db.DB_TYPE} is not supported: cairn stores its data in PostgreSQL` : `"${db.DB_TYPE}" is not a database type`}; set DB_TYPE = postgres with HOST, NAME, USER and PASSWD, or leave [database] empty for the embedded database`,
    );
  }
  if (db.SSL_MODE !== 'disable')
    throw new ConfigError(
      `${where('DATABASE', 'SSL_MODE')}: "${db.SSL_MODE}" is not supported: cairn connects to PostgreSQL without TLS (SSL_MODE = disable)`,
    );
  if (db.NAME === '') throw new ConfigError(`${where('DATABASE', 'NAME')}: DB_TYPE = postgres needs the database's NAME`);
  const host = db.HOST || '127.0.0.1:5432';
  let hostPart: string;
  if (host.startsWith('/')) {
    hostPart = `${encodeURIComponent(host)}:5432`;
  } else {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    if (!m) throw new ConfigError(`${where('DATABASE', 'HOST')}: "${host}" is not host[:port] or a socket directory`);
    hostPart = `${m[1]}:${m[2] ?? '5432'}`;
  }
  const auth = db.USER === '' ? '' : `${encodeURIComponent(db.USER)}${db.PASSWD === '' ? '' : `:${encodeURIComponent(db.PASSWD)}`}@`;
  return `postgresql://${auth}${hostPart}/${encodeURIComponent(db.NAME)}`;
}

/** A setting of an app.ini, and where it is written (for messages). */
interface FileValue {
  value: string;
  where: string;
}

/**
 * An app.ini in Forgejo's format, read by the `ini` package: `[section]` headers, `KEY = value` lines,
 * `;` and `#` comments, a value quoted with `"` (or, as go-ini reads it, backticks) keeping `#` and
 * `;`, and go-ini's `%(KEY)s` references to keys of the same section or the default one. Keys before
 * any section are [DEFAULT]'s. Sections and keys cairn does not read are notices; a line that is not a
 * header, a comment or `KEY = value` stops the start.
 */
function readAppIni(file: string): { file: string; values: Map<string, FileValue>; notices: FileNotice[] } {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read the configuration file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const name = path.basename(abs);
  const lines = lineIndex(text);
  const tree = ini.decode(text, { bracketedArray: false }) as Record<string, unknown>;
  // Section (as written) -> key -> value, from the parser.
  const parsed = new Map<string, Map<string, string>>();
  const walk = (node: Record<string, unknown>, section: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        walk(value as Record<string, unknown>, section === 'DEFAULT' ? key : `${section}.${key}`);
        continue;
      }
      // A key given twice is an array: the last wins, as in go-ini. `true`, `false` and `null` come back as values.
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      if (!parsed.has(section)) parsed.set(section, new Map());
      parsed.get(section)!.set(key, String(last));
    }
  };
  walk(tree, 'DEFAULT');
  for (const section of lines.sections.keys()) if (!parsed.has(section)) parsed.set(section, new Map());

  const values = new Map<string, FileValue>();
  const notices: FileNotice[] = [];
  for (const [section, keys] of parsed) {
    const known = section === 'DEFAULT' ? 'DEFAULT' : section.toUpperCase().replace(/\./g, '_');
    const defs = (SETTINGS as Record<string, Record<string, SettingDef>>)[known];
    if (!defs) {
      const line = lines.sections.get(section) ?? 0;
      notices.push({ file: abs, line, section, key: null, message: `${name}:${line}: section [${section}] is not used by cairn` });
      continue;
    }
    for (const [key, rawValue] of keys) {
      const at = lines.keys.get(`${section}\0${key}`);
      const line = at?.line ?? 0;
      const label = section === 'DEFAULT' ? key : `[${section}] ${key}`;
      if (at && at.raw === null) throw new ConfigError(`${name}:${line}: ${label}: a setting is written KEY = value`);
      if (!(key in defs)) {
        notices.push({ file: abs, line, section, key, message: `${name}:${line}: ${label} is not used by cairn` });
        continue;
      }
      // go-ini's backtick quoting, which the ini package does not know: the text between them, as written.
      const backticked = at?.raw && /^`[^`]*`$/.test(at.raw) ? at.raw.slice(1, -1) : null;
      const value = backticked ?? interpolate(rawValue, section, parsed, `${name}:${line}: ${label}`);
      values.set(`${known}__${key}`, { value, where: `${name}:${line}: ${label}` });
    }
  }
  notices.sort((a, b) => a.line - b.line);
  return { file: abs, values, notices };
}

/** go-ini's `%(KEY)s`: the key's value in the same section, else in the default one. */
function interpolate(value: string, section: string, parsed: Map<string, Map<string, string>>, where: string, depth = 0): string {
  if (!value.includes('%(')) return value;
  if (depth > 20) throw new ConfigError(`${where}: %(...)s references nest too deep (a loop?)`);
  return value.replace(/%\(([^)]+)\)s/g, (whole, key: string) => {
    const found = parsed.get(section)?.get(key) ?? parsed.get('DEFAULT')?.get(key);
    return found === undefined ? whole : interpolate(found, section, parsed, where, depth + 1);
  });
}

/**
 * The line of every section header and key of an INI text, by the grammar the ini package applies
 * (lib/ini.js decode: comments start with `;` or `#`, a header is `[name]` at the start of the line,
 * anything else is `key[=value]`), with each key's value as written (null for a line without `=`).
 */
function lineIndex(text: string): { sections: Map<string, number>; keys: Map<string, { line: number; raw: string | null }> } {
  const sections = new Map<string, number>();
  const keys = new Map<string, { line: number; raw: string | null }>();
  let section = 'DEFAULT';
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (/^\s*([;#]|$)/.test(line)) return;
    const header = /^\[([^\]]*)\]\s*$/.exec(line);
    if (header) {
      section = header[1]!.trim();
      if (!sections.has(section)) sections.set(section, i + 1);
      return;
    }
    const eq = line.indexOf('=');
    keys.set(`${section}\0${(eq < 0 ? line : line.slice(0, eq)).trim()}`, { line: i + 1, raw: eq < 0 ? null : line.slice(eq + 1).trim() });
  });
  return { sections, keys };
}

/** Retry and cleanup settings that parse but make no sense stop the start, as other bad values do. */
function checkWebhookSettings(cfg: Config, where: Where): void {
  if (cfg.WEBHOOK.DELIVER_ATTEMPTS < 1) throw new ConfigError(`${where('WEBHOOK', 'DELIVER_ATTEMPTS')}: must be at least 1`);
  if (cfg.WEBHOOK.DELIVER_BACKOFF < 0) throw new ConfigError(`${where('WEBHOOK', 'DELIVER_BACKOFF')}: must not be negative`);
  const c = cfg.CRON_CLEANUP_HOOK_TASK_TABLE;
  const cron = (key: string) => where('CRON_CLEANUP_HOOK_TASK_TABLE', key);
  if (!['OlderThan', 'PerWebhook'].includes(c.CLEANUP_TYPE))
    throw new ConfigError(`${cron('CLEANUP_TYPE')}: "${c.CLEANUP_TYPE}" is neither OlderThan nor PerWebhook`);
  const age = parseDuration(c.OLDER_THAN);
  if (age === null || age < 0) throw new ConfigError(`${cron('OLDER_THAN')}: "${c.OLDER_THAN}" is not a duration`);
  if (c.NUMBER_TO_KEEP < 0) throw new ConfigError(`${cron('NUMBER_TO_KEEP')}: must not be negative`);
  if (schedulePeriod(c.SCHEDULE) === null)
    throw new ConfigError(`${cron('SCHEDULE')}: "${c.SCHEDULE}" is not @every <duration>, @hourly, @daily, @midnight or @weekly`);
}

/**
 * The period of a cron schedule in the forms cairn runs: `@every <duration>` and the named periods.
 * cairn runs them on a period counted from the last run (kept in the database), not at a wall-clock
 * time: `@midnight` is once every 24 hours.
 */
export function schedulePeriod(spec: string): number | null {
  const named: Record<string, number> = { '@hourly': 3_600_000, '@daily': 86_400_000, '@midnight': 86_400_000, '@weekly': 7 * 86_400_000 };
  if (spec in named) return named[spec];
  const every = /^@every\s+(\S+)$/.exec(spec);
  const ms = every ? parseDuration(every[1]) : null;
  return ms !== null && ms > 0 ? ms : null;
}

function sshPort(where: string, raw: string): number | null {
  if (raw === '') return null;
  const port = /^\d+$/.test(raw) ? Number(raw) : -1;
  if (port < 0 || port > 65535) throw new ConfigError(`${where}: "${raw}" is not a port number`);
  return port;
}

/** A comma-list setting as Forgejo reads one: items trimmed, empty ones dropped. */
export const listSetting = (raw: string): string[] =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function parse(name: string, kind: Kind, raw: string): unknown {
  const v = raw.trim();
  switch (kind) {
    case 'bool':
      if (/^(true|1|yes|on)$/i.test(v)) return true;
      if (/^(false|0|no|off)$/i.test(v)) return false;
      throw new ConfigError(`${name}: "${raw}" is not a boolean (true or false)`);
    case 'int':
      if (!/^-?\d+$/.test(v)) throw new ConfigError(`${name}: "${raw}" is not an integer`);
      return Number(v);
    case 'url':
      if (v === '') return v;
      if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol)) throw new ConfigError(`${name}: "${raw}" is not an http(s) URL`);
      return v;
    case 'string':
      return v;
  }
}

/** Every setting with its variable name and default, for the README and `cli config`. */
export function describeSettings(): { variable: string; kind: Kind; default: string }[] {
  return Object.entries(SETTINGS).flatMap(([section, keys]) =>
    Object.entries(keys).map(([key, def]) => ({
      variable: `CAIRN__${section}__${key}`,
      kind: (def as SettingDef).kind,
      default: (def as SettingDef).default,
    })),
  );
}

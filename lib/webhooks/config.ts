// The type-specific settings of a hook (Forgejo's per-service forms and Metadata): which `config` keys
// each type takes through the API, how they are checked, what is stored in Webhook.meta, and what the
// API shows back as `metadata`. Forgejo's API itself only reads `channel` (and the slack extras) and
// answers 422 `Missing config option: <name>` for a missing required key; cairn also reads the other
// services' keys, requiring the ones without which no delivery could work (packagist's package_url,
// sourcehut builds' manifest_path) and checking each given value as Forgejo's form does.
import { badRequest, unprocessable } from '../http/errors.ts';

type Config = Record<string, string>;
type Meta = Record<string, string | number | boolean>;

const isUrl = (u: string) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol);
/** Forgejo's IsValidSlackChannel. */
const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;
/** Go's fs.ValidPath: relative, slash-separated, no empty, `.` or `..` elements. */
const validPath = (p: string) =>
  p === '.' || (p !== '' && !p.startsWith('/') && !p.endsWith('/') && p.split('/').every((e) => e !== '' && e !== '.' && e !== '..'));

const invalid = (name: string) => unprocessable(`Invalid config option: ${name}`);
function parseBool(v: string): boolean | null {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return null;
}

interface TypeSpec {
  /** The stored fields with their zero values, in Forgejo's Meta order. */
  zero: Meta;
  /** Keys a new hook must have. */
  required: string[];
  /** Checks and converts one given key. */
  read(key: string, value: string): string | number | boolean;
  /** Stored fields the API never shows (credentials). */
  hidden?: string[];
}

const text = (_key: string, v: string) => v;

const SPECS: Record<string, TypeSpec> = {
  slack: {
    zero: { channel: '', username: '', icon_url: '', color: '' },
    required: ['channel'],
    read(key, v) {
      if (key !== 'channel') return v;
      // Forgejo answers this one with 400, not 422.
      if (!SLACK_CHANNEL.test(v.trim())) throw badRequest('Invalid slack channel name');
      return v.trim();
    },
  },
  discord: {
    zero: { username: '', icon_url: '' },
    required: [],
    read(key, v) {
      if (key === 'username' && [...v].length > 80) throw invalid(key);
      if (key === 'icon_url' && v !== '' && (!isUrl(v) || [...v].length > 2048)) throw invalid(key);
      return v;
    },
  },
  telegram: { zero: { bot_token: '', chat_id: '', thread_id: '' }, required: [], read: text, hidden: ['bot_token'] },
  matrix: {
    zero: { homeserver_url: '', room_id: '', message_type: 0 },
    required: [],
    read(key, v) {
      if (key === 'homeserver_url' && !isUrl(v)) throw invalid(key);
      if (key === 'message_type') {
        if (v !== '1' && v !== '2') throw invalid(key);
        return Number(v);
      }
      return v;
    },
  },
  packagist: {
    zero: { username: '', api_token: '', package_url: '' },
    required: ['package_url'],
    read(key, v) {
      if (key === 'package_url' && !isUrl(v)) throw invalid(key);
      return v;
    },
    hidden: ['api_token'],
  },
  sourcehut_builds: {
    zero: { manifest_path: '', visibility: '', secrets: false },
    required: ['manifest_path'],
    read(key, v) {
      if (key === 'manifest_path' && !validPath(v)) throw invalid(key);
      if (key === 'visibility' && !['PUBLIC', 'UNLISTED', 'PRIVATE'].includes(v)) throw invalid(key);
      if (key === 'secrets') {
        const b = parseBool(v);
        if (b === null) throw invalid(key);
        return b;
      }
      return v;
    },
  },
};

/** Types whose access token goes out as `Authorization: Bearer <token>` (Forgejo's matrix and builds forms). */
const TOKEN_TYPES = ['matrix', 'sourcehut_builds'];

/**
 * The Webhook.meta of a hook of `type` from the API `config`, merged over `current` (an edit changes
 * only the keys it carries); '' for types without settings. Throws the 4xx Forgejo answers.
 */
export function hookMeta(type: string, config: Config, current: string, creating: boolean): string {
  const spec = SPECS[type];
  if (!spec) return current;
  // Forgejo's editHook rewrites slack settings only when `channel` is given, and then all of them.
  if (type === 'slack' && !creating) {
    if (!('channel' in config)) return current;
    current = '';
  }
  if (creating) for (const key of spec.required) if (!(key in config)) throw unprocessable(`Missing config option: ${key}`);
  const meta: Meta = { ...spec.zero, ...(current ? (JSON.parse(current) as Meta) : {}) };
  for (const key of Object.keys(spec.zero)) if (key in config) meta[key] = spec.read(key, config[key]);
  return JSON.stringify(meta);
}

/** The Authorization header a matrix or builds hook gets from `config.access_token`, if given. */
export function tokenAuthorization(type: string, config: Config): string | null {
  const token = config.access_token?.trim();
  return TOKEN_TYPES.includes(type) && token ? `Bearer ${token}` : null;
}

/** Forgejo's handler.Metadata for the API's `metadata` (credentials blanked); null for types without settings. */
export function apiMetadata(type: string, meta: string): Meta | null {
  const spec = SPECS[type];
  if (!spec) return null;
  const out: Meta = { ...spec.zero, ...(meta ? (JSON.parse(meta) as Meta) : {}) };
  for (const key of spec.hidden ?? []) out[key] = '';
  return out;
}

// Generated from Forgejo's swagger (definitions section) and hand-checked; see index.ts for the conventions.
// Small leaf types shared by several families (enum-like strings, durations, timestamps, RepositoryMeta).
//
// Conventions: request types (…Option/…Options/…Form) carry Forgejo's Go binding rules as
// `x-binding` + constraint; response types accept `null` for object refs, arrays, maps and date-times.
// `date-time`/`email` formats are kept as `x-format` annotations (never validated).
import { Type, type Static } from 'typebox';

// Patterns for Go binding rules that JSON Schema cannot name (see validate.ts for how they map to messages).
/** AlphaDashDot (go-chi binding): letters, digits, `_`, `-`, `.`; non-empty */
export const PATTERN_ALPHA_DASH_DOT = '^[-.\\w]+$';
/** AlphaDashDot for optional fields (empty allowed, as Go skips zero values) */
export const PATTERN_ALPHA_DASH_DOT_OR_EMPTY = '^[-.\\w]*$';
/** Username: a valid Forgejo user/org name */
export const PATTERN_USERNAME = '^[\\w.-]+$';
/** Email: something@something */
export const PATTERN_EMAIL = '^[^@\\s]+@[^@\\s]+$';
/** Email, or empty (optional fields) */
export const PATTERN_EMAIL_OR_EMPTY = '^$|^[^@\\s]+@[^@\\s]+$';
/** ValidUrl (`Url`): http(s) URL, or empty */
export const PATTERN_URL_OR_EMPTY = '^$|^https?://';
/** GitRefName: approximation of `git check-ref-format` (empty allowed; Required is checked separately) */
export const PATTERN_GIT_REF_NAME =
  '^(?![-/.])(?!.*\\.\\.)(?!.*//)(?!.*@\\{)(?!.*/\\.)(?!.*\\.lock(?:/|$))(?!.*[/.]$)(?!@$)[^\\x00-\\x20\\x7f~^:?*\\[\\\\]*$';
/** label colour: `#rrggbb`, `rrggbb`, `#rgb` or `rgb` */
export const PATTERN_LABEL_COLOR = '^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$';

// Integer bounds of request fields. Go's fields are int64, but every id, counter,
// line and limit column here is PostgreSQL `integer`, so a larger value names nothing or cannot be
// stored; int64 values in `bigint` columns stop at 2^53−1, beyond which JSON.parse rounds them.
export const INT32 = { minimum: -2147483648, maximum: 2147483647 } as const;
export const INT53 = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } as const;

export const CommitStatusState = Type.String({
  $id: 'CommitStatusState',
  description:
    'CommitStatusState holds the state of a CommitStatus\nIt can be "pending", "success", "error", "failure", "warning", or "skipped"',
});
export type CommitStatusState = Static<typeof CommitStatusState>;

export const Duration = Type.Integer({
  $id: 'Duration',
  description:
    'A Duration represents the elapsed time between two instants\nas an int64 nanosecond count. The representation limits the\nlargest representable duration to approximately 290 years.',
  format: 'int64',
});
export type Duration = Static<typeof Duration>;

export const NotifySubjectType = Type.String({
  $id: 'NotifySubjectType',
  description: 'NotifySubjectType represent type of notification subject',
});
export type NotifySubjectType = Static<typeof NotifySubjectType>;

export const RepositoryMeta = Type.Object(
  {
    full_name: Type.Optional(Type.String({ 'x-go-name': 'FullName' })),
    id: Type.Optional(Type.Integer({ format: 'int64', 'x-go-name': 'ID' })),
    name: Type.Optional(Type.String({ 'x-go-name': 'Name' })),
    owner: Type.Optional(Type.String({ 'x-go-name': 'Owner' })),
  },
  { $id: 'RepositoryMeta', description: 'RepositoryMeta basic repository information' },
);
export type RepositoryMeta = Static<typeof RepositoryMeta>;

export const ReviewStateType = Type.String({ $id: 'ReviewStateType', description: 'ReviewStateType review state type' });
export type ReviewStateType = Static<typeof ReviewStateType>;

export const StateType = Type.String({ $id: 'StateType', description: 'StateType issue state type' });
export type StateType = Static<typeof StateType>;

export const TimeStamp = Type.Integer({ $id: 'TimeStamp', description: 'TimeStamp defines a timestamp', format: 'int64' });
export type TimeStamp = Static<typeof TimeStamp>;

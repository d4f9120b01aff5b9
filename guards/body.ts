// Spec, "Request body binding": when a route lists a body type and the body does not validate, 422
// with `<field names>: <error text>` for the first error. BODY marks the place in a chain; the
// interpreter binds it to the row's schema (`body: 'CreateRepoOption'`, `'text'` or `'multipart'`).
import { step } from './types.ts';

export const BODY = step('BODY', 'body', [], ['body'], () => {
  throw new Error('BODY must be bound to its row by the interpreter');
});

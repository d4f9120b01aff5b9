// A small HTTP client for tests: real requests, parsed JSON, headers kept.
export interface Res {
  status: number;
  headers: Headers;
  text: string;
  // Parsed JSON when the body is JSON; tests assert on shapes, so `any` keeps them short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface Call {
  token?: string;
  basic?: [string, string];
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: 'manual' | 'follow';
}

export async function call(base: string, method: string, path: string, opts: Call = {}): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `token ${opts.token}`;
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${opts.basic[0]}:${opts.basic[1]}`).toString('base64')}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] ??= typeof opts.body === 'string' ? 'text/plain' : 'application/json';
  }
  const r = await fetch(`${base}${path}`, { method, headers, body, redirect: opts.redirect ?? 'manual' });
  const text = await r.text();
  let json: unknown = undefined;
  if ((r.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text);
  return { status: r.status, headers: r.headers, text, json };
}

export const client = (base: string) => ({
  get: (path: string, o?: Call) => call(base, 'GET', path, o),
  post: (path: string, o?: Call) => call(base, 'POST', path, o),
  put: (path: string, o?: Call) => call(base, 'PUT', path, o),
  patch: (path: string, o?: Call) => call(base, 'PATCH', path, o),
  del: (path: string, o?: Call) => call(base, 'DELETE', path, o),
  call: (method: string, path: string, o?: Call) => call(base, method, path, o),
});

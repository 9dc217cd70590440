import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A form, JSON (an object), or bytes sent as they are (a string, or a Buffer such as a multipart body). */
type Body = Record<string, unknown> | URLSearchParams | string | Buffer | undefined;

/**
 * A browser stand-in over app.inject: keeps cookies like a browser does and echoes csrftoken in X-CSRFToken
 * on unsafe requests, as the site's own fetch wrapper does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Set to false to send unsafe requests without the X-CSRFToken header. */
  sendCsrfHeader = true;

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  get csrfToken(): string | undefined {
    return this.cookies.get('csrftoken');
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.request('GET', url, undefined, headers);
  }

  async post(
    url: string,
    body?: Body,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.request('POST', url, body, headers);
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: Body,
    extraHeaders: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (method !== 'GET' && this.sendCsrfHeader && this.csrfToken) headers['x-csrftoken'] = this.csrfToken;
    let payload: string | Buffer | undefined;
    if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (typeof body === 'string' || Buffer.isBuffer(body)) {
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await this.app.inject({
      method,
      url,
      headers: { ...headers, ...extraHeaders },
      payload,
      remoteAddress: this.ip,
    });
    for (const cookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now() && !cookie.value);
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }
}

import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { testAppForFile } from '../../../test/support/file-apps';
import { answerChecker, openApiDocument } from '../../../test/support/openapi';

const t = testAppForFile();

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that passes the validator', async () => {
    const document = await openApiDocument(t.app);
    expect(document.openapi).toBe('3.1.0');
    // Validates against the OpenAPI 3.1 schema and resolves every $ref; throws with the first problem.
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('describes the calls the desktop tools and the browser make, and not the dashboard', async () => {
    const { paths = {} } = await openApiDocument(t.app);
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/licenses/activate',
        '/api/licenses/validate',
        '/api/licenses/deactivate',
        '/api/licenses/update-check',
        '/api/licenses/public-keys',
        '/api/updates/public-key',
        '/api/trials/',
        '/api/coupons/check',
        '/api/alltools/',
        '/api/orders/',
        '/api/account/email-preferences',
        '/api/checkout/opened',
        '/api/my-licenses/',
        '/api/my-licenses/devices/{activationId}/license-file',
      ]),
    );
    expect(Object.keys(paths).filter((path) => path.startsWith('/api/admin'))).toEqual([]);
    const validate = paths['/api/licenses/validate']?.post;
    expect(validate?.requestBody).toBeDefined();
    expect(Object.keys(validate?.responses ?? {})).toEqual(['200', '400', '413', '415', '429', '503']);
  });

  it('describes every call a program may make, with every answer its route declares', async () => {
    const { paths = {} } = await openApiDocument(t.app);
    // The operator's dashboard, and the development-only mailbox and Razorpay emulator, are not for programs.
    const offTheDocument = /^\/(api\/admin\/|dev\/|emulator\/)/;
    const routes = t.routes.filter((route) => route.method !== 'HEAD' && !offTheDocument.test(route.url));
    expect(routes.length).toBeGreaterThan(70);
    const undescribed = routes.flatMap((route) => {
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = paths[path]?.[route.method.toLowerCase() as OpenAPIV3_1.HttpMethods];
      if (!operation) return [`${route.method} ${route.url}`];
      const described = Object.keys(operation.responses ?? {});
      return Object.keys(route.schema?.response ?? {})
        .map((status) => status.toUpperCase())
        .filter((status) => !described.includes(status))
        .map((status) => `${route.method} ${route.url}: ${status}`);
    });
    expect(undescribed).toEqual([]);
  });
});

describe('the answer checker the license API tests use', () => {
  it('refuses an answer that does not fit its schema, and a status the document does not describe', async () => {
    const check = await answerChecker(t.app);
    const path = '/api/licenses/validate';
    expect(() =>
      check('POST', path, { statusCode: 200, body: '{"valid":true,"code":"VALID"}' }),
    ).not.toThrow();
    expect(() => check('POST', path, { statusCode: 200, body: '{"valid":"yes","code":"VALID"}' })).toThrow(
      /does not fit/,
    );
    expect(() => check('POST', path, { statusCode: 200, body: '{"valid":true,"code":"MAYBE"}' })).toThrow(
      /does not fit/,
    );
    expect(() => check('POST', path, { statusCode: 418, body: '{}' })).toThrow(/does not describe/);
  });
});

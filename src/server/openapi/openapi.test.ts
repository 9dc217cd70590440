import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { openApiDocument } from '../../../test/support/openapi';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
    expect(Object.keys(validate?.responses ?? {})).toEqual(['200', '400', '413', '415', '429']);
  });
});

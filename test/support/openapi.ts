import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { OPENAPI_PATH } from '../../src/server/openapi/openapi';

/** The app's OpenAPI document, as a client reads it from `GET /api/openapi.json`. */
export async function openApiDocument(app: FastifyInstance): Promise<OpenAPIV3_1.Document> {
  const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  if (response.statusCode !== 200) throw new Error(`${OPENAPI_PATH} answered ${response.statusCode}`);
  return response.json();
}

type Answer = { statusCode: number; body: string };

/**
 * Checks answers against the response schemas of the app's own document: `check(method, path, response)` throws,
 * naming the operation and each mismatch, when the answer's status is not documented or its body does not fit.
 */
export async function answerChecker(app: FastifyInstance) {
  const document = (await SwaggerParser.dereference(await openApiDocument(app))) as OpenAPIV3_1.Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (method: string, path: string, answer: Answer): void => {
    const operation = document.paths?.[path]?.[method.toLowerCase() as OpenAPIV3_1.HttpMethods];
    const described = operation?.responses?.[String(answer.statusCode)] as
      | OpenAPIV3_1.ResponseObject
      | undefined;
    const schema = described?.content?.['application/json']?.schema;
    if (!schema)
      throw new Error(
        `${method} ${path} answered ${answer.statusCode}, which the document does not describe`,
      );
    const key = `${method} ${path} ${answer.statusCode}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(key, validate);
    }
    if (!validate(JSON.parse(answer.body)))
      throw new Error(`${key} does not fit the document: ${ajv.errorsText(validate.errors)}\n${answer.body}`);
  };
}

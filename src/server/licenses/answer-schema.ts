import { z } from 'zod';
import { licenseErrorAnswerSchema } from '../../shared/api-schemas';
import { LICENSE_CODES, LICENSE_STATUSES } from '../../shared/licenses';

const licenseSummary = {
  type: 'object',
  required: ['toolId', 'toolName', 'status', 'activationLimit', 'activationsUsed'],
  properties: {
    toolId: { type: 'string' },
    toolName: { type: 'string' },
    status: { type: 'string', enum: LICENSE_STATUSES },
    activationLimit: { type: 'integer' },
    activationsUsed: { type: 'integer' },
  },
} as const;

const activationSummary = {
  type: 'object',
  required: ['id', 'fingerprint', 'name', 'activatedAt'],
  properties: {
    id: { type: 'string' },
    fingerprint: { type: 'string' },
    name: { type: ['string', 'null'] },
    activatedAt: { type: 'string' },
  },
} as const;

/**
 * The license API's `200` answer (`LicenseAnswer`) as a route response schema: Fastify compiles it into a serialiser
 * (fast-json-stringify), so no answer pays for a generic `JSON.stringify`, and nothing beyond these fields can leak
 * into one. Refusals with another status (400, 413, 429) go through the scope's error handler instead.
 */
export const licenseAnswerResponse = {
  200: {
    description: 'The license\'s answer, whatever its code (docs/license-api.md, "Codes")',
    type: 'object',
    required: ['valid', 'code'],
    properties: {
      valid: { type: 'boolean' },
      code: { type: 'string', enum: LICENSE_CODES },
      message: { type: 'string' },
      license: licenseSummary,
      activation: activationSummary,
      licenseFile: { type: 'string' },
      deactivated: { type: 'boolean' },
      expiresAt: { type: 'string' },
      leaseExpiresAt: { type: 'string' },
      heartbeatSeconds: { type: 'integer' },
      edition: {
        description: 'The edition of a tool with editions; null for a tool without (decision 056)',
        anyOf: [
          {
            type: 'object',
            required: ['id', 'name'],
            properties: { id: { type: 'string' }, name: { type: 'string' } },
          },
          { type: 'null' },
        ],
      },
      entitlements: {
        description: "The feature codes the license's edition unlocks (`ocr`); empty without editions",
        type: 'array',
        items: { type: 'string' },
      },
      updatesUntil: {
        description:
          'The end of the license’s updates (ISO 8601): it may install releases published until then and works for ever; null: every release (decision 059)',
        type: ['string', 'null'],
      },
      reason: { description: 'With SUSPENDED: why, for the user', type: 'string' },
      updates: {
        type: 'object',
        required: ['appcastUrl', 'velopackUrl'],
        properties: { appcastUrl: { type: 'string' }, velopackUrl: { type: 'string' } },
      },
    },
  },
} as const;

/**
 * A refusal of the license API (400, 413, 415, 429, and 503 while the database cannot be reached), from the shared
 * schema: declared so the document describes it, and serialised from it like the answers (every field the scope's
 * error handler writes is in it). An unexpected failure (500) is the root's one error, left undeclared here: this
 * shape, which requires `valid`, could not serialise it.
 */
const { $schema: _draft, ...licenseError } = z.toJSONSchema(licenseErrorAnswerSchema);
export const licenseErrorResponses = {
  400: {
    description: 'A field is missing or wrong (fieldErrors names it), or the body is not JSON',
    ...licenseError,
  },
  413: { description: 'The body is larger than 4 KB', ...licenseError },
  415: { description: 'The body is not application/json', ...licenseError },
  429: { description: 'Too many calls for this key or address; see Retry-After', ...licenseError },
  503: { description: 'The database cannot be reached right now; see Retry-After', ...licenseError },
};

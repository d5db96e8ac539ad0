// A compiled response serializer for the hot read routes (docs/adr/0080-compiled-response-serializer.md):
// fast-json-stringify built once per route from the JSON Schema of the same zod response schema,
// instead of zod checking and copying every value of every answer before JSON.stringify.
// Other routes keep the zod serializer, which refuses an answer that breaks its schema.
import fastJson from 'fast-json-stringify';
import type { FastifyReply } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Route option `serializerCompiler`: compiled from the zod schema's output JSON Schema; a schema
 * JSON Schema cannot express (transforms, custom checks) keeps the zod serializer.
 */
export function compiledSerializerCompiler<S>(route: FastifyRouteSchemaDef<S>): (data: unknown) => string {
  let jsonSchema: unknown;
  try {
    jsonSchema = z.toJSONSchema(route.schema as z.ZodType, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
  } catch {
    return zodSerializerCompiler(route as unknown as Parameters<typeof zodSerializerCompiler>[0]);
  }
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}

/**
 * Route option `serializerCompiler` for an answer whose 200 body our own typed code builds with
 * exactly the schema's fields and scalar values (the row page): JSON.stringify writes the same bytes
 * as the compiled serializer, natively and faster (docs/adr/0081). Other statuses as above.
 */
export function plainJsonSerializerCompiler<S>(route: FastifyRouteSchemaDef<S>): (data: unknown) => string {
  return String(route.httpStatus) === '200' ? (data) => JSON.stringify(data) : compiledSerializerCompiler(route);
}

/**
 * Sends an answer that is JSON text already (the stored forecast, docs/adr/0083): Fastify passes a
 * string with a JSON content type on as it is, without the route's serializer.
 */
export const sendJsonText = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json);

// GET /api/yaml/config/ and POST /api/yaml/update-entity/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { configResponse, errorBody, updateEntityRequest, updateEntityResponse } from '@stockwise/contract';
import { readProductConfig, updateEntityConfig, type ConfigContext, type TableColumnsLookup } from './service.ts';

export function configRoutes(ctx: ConfigContext, columnsOf: TableColumnsLookup): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/yaml/config/', {
      config: { policy: 'viewer' },
      schema: { tags: ['config'], summary: 'The product configuration (tables, mappings, queries, inventory.entities)', response: { 200: configResponse, 401: errorBody } },
      handler: async () => {
        const reading = await readProductConfig(ctx);
        switch (reading.status) {
          case 'ok':
            return { success: true as const, content: reading.config };
          case 'missing':
            return { success: false as const, message: 'Configuration file not found' };
          case 'invalid':
            return { success: false as const, message: 'Failed to parse configuration file' };
        }
      },
    });
    app.post('/api/yaml/update-entity/', {
      config: { policy: 'admin' },
      schema: { tags: ['config'], summary: 'Validate and save one inventory entity config', body: updateEntityRequest, response: { 200: updateEntityResponse, 400: errorBody, 401: errorBody } },
      handler: async (request) => {
        const entity = await updateEntityConfig(ctx, { entityName: request.body.entity_name, config: request.body.config, columnsOf });
        return { success: true as const, message: `Entity '${entity.name}' updated.`, entity };
      },
    });
  };
}

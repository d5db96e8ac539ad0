// GET /api/yaml/config/, POST /api/yaml/update-entity/, POST /api/yaml/reset-entity/ and POST /api/yaml/save-mapping/.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { configResponse, errorBody, resetEntityRequest, saveMappingRequest, saveMappingResponse, timeZoneQuery, updateEntityRequest, updateEntityResponse } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { versionedWrite } from '../http/versions.ts';
import { configWithVersions, readProductConfig, resetEntityConfig, saveMapping, updateEntityConfig, type ConfigContext, type EntityMappingCheck, type TableColumnsLookup } from './service.ts';

export function configRoutes(ctx: ConfigContext, columnsOf: TableColumnsLookup, checkEntityMapping: EntityMappingCheck): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/yaml/config/', {
      config: { policy: 'viewer' },
      schema: {
        tags: ['config'],
        summary: "The product configuration (tables, mappings, queries, inventory.entities, each entity with its version and the configuration file's version of it, file_config)",
        response: { 200: configResponse, 401: errorBody },
      },
      handler: async () => {
        const reading = await readProductConfig(ctx);
        switch (reading.status) {
          case 'ok':
            return { success: true as const, content: configWithVersions(reading) };
          case 'missing':
            return { success: false as const, message: 'Configuration file not found' };
          case 'invalid':
            return { success: false as const, message: 'Failed to parse configuration file' };
        }
      },
    });
    app.post('/api/yaml/update-entity/', {
      config: { policy: 'admin' },
      schema: {
        tags: ['config'],
        summary: "Validate and save one inventory entity config; with If-Match: the entity's version read, a save by someone else since is refused (409 edit_conflict)",
        querystring: timeZoneQuery,
        body: updateEntityRequest,
        response: { 200: updateEntityResponse, 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody },
      },
      handler: async (request) => {
        const entity = await updateEntityConfig(ctx, { entityName: request.body.entity_name, config: request.body.config, columnsOf }, versionedWrite(request));
        return { success: true as const, message: `Entity '${entity.name}' updated.`, entity };
      },
    });
    app.post('/api/yaml/reset-entity/', {
      config: { policy: 'admin' },
      schema: {
        tags: ['config'],
        summary: "Set one inventory entity back to the configuration file's version (its file_config), which it then follows; with If-Match as update-entity (409 edit_conflict)",
        querystring: timeZoneQuery,
        body: resetEntityRequest,
        response: { 200: updateEntityResponse, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody },
      },
      handler: async (request) => {
        const entity = await resetEntityConfig(ctx, request.body.entity_name, versionedWrite(request));
        return { success: true as const, message: `Entity '${entity.name}' set back to the configuration file's version.`, entity };
      },
    });
    app.post('/api/yaml/save-mapping/', {
      config: { policy: 'editor' },
      schema: {
        tags: ['config'],
        summary: "Save a named import mapping (editors: new names and their own; replacing the file's or another user's: admins)",
        body: saveMappingRequest,
        response: { 200: saveMappingResponse, 400: errorBody, 401: errorBody, 403: errorBody },
      },
      handler: async (request) => {
        const user = currentUser(request);
        const mapping = await saveMapping(ctx, { name: request.body.name, config: request.body.config, user: { userId: user.userId, role: user.role }, checkEntityMapping });
        return { success: true as const, message: `Mapping '${request.body.name}' saved.`, name: request.body.name, mapping };
      },
    });
  };
}

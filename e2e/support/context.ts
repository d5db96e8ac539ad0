// Values the global setup hands to the test files.
declare module 'vitest' {
  export interface ProvidedContext {
    /** The server with the normal access-token lifetime. */
    baseUrl: string;
    /** A second server whose access tokens live a few seconds, for the refresh test. */
    shortTtlBaseUrl: string;
    shortTtlSeconds: number;
  }
}

export const demoUser = { username: 'demo', password: 'stockwise-demo' } as const;

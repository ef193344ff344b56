import type { RouteTable } from '../context.js';
import type { RequestBodies } from '../validate.js';

/** What a route file of the contract's operations gives: its handlers, and the JSON bodies they read. */
export interface RouteModule {
  readonly routes: RouteTable;
  readonly requestBodies?: RequestBodies;
}

/** The route files, loaded on first use: the server registers their handlers, the OpenAPI document reads their bodies. */
export function loadRouteModules(): Promise<RouteModule[]> {
  return Promise.all([
    import('./account.js'),
    import('./envelopes.js'),
    import('./participants.js'),
    import('./documents.js'),
    import('./anchors.js'),
    import('./contacts.js'),
    import('./team.js'),
    import('./folders.js'),
    import('./webhooks.js'),
    import('./templates.js'),
    import('./reports.js'),
  ]);
}

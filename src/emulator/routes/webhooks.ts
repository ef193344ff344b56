import type { RouteTable } from '../context.js';

export const routes: RouteTable = {};

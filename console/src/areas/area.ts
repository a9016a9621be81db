import type { ReactElement } from 'react';
import type { Me } from '../auth/me';

export interface NavEntry {
  to: string;
  label: string;
}

/**
 * One section of the console: its routes (React Router `<Route>` elements, usually in a fragment) under
 * `/t/:tenantNumber` and at the top level, and the side-navigation entries the caller may use.
 */
export interface ConsoleArea {
  tenantRoutes?: ReactElement;
  platformRoutes?: ReactElement;
  tenantNav?: (tenantNumber: number, me: Me | undefined) => NavEntry[];
  platformNav?: (me: Me | undefined) => NavEntry[];
}

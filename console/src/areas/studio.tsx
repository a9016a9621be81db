import { lazy, Suspense, type ReactNode } from 'react';
import { Route } from 'react-router';
import { canTenantWide } from '../auth/me';
import { Loading } from '../components/status';
import type { ConsoleArea } from './area';

// The studio pages carry the graph library: loaded when first opened, not with the console.
const FlowStudioPage = lazy(() => import('../pages/studio/FlowStudioPage').then((module) => ({ default: module.FlowStudioPage })));
const FlowVersionPage = lazy(() => import('../pages/studio/FlowVersionPage').then((module) => ({ default: module.FlowVersionPage })));
const ExecutionsPage = lazy(() => import('../pages/studio/ExecutionsPage').then((module) => ({ default: module.ExecutionsPage })));
const ExecutionPage = lazy(() => import('../pages/studio/ExecutionPage').then((module) => ({ default: module.ExecutionPage })));

const page = (element: ReactNode) => <Suspense fallback={<Loading what="the page" />}>{element}</Suspense>;

/** Flow studio (versions, graph editor, validation, fixtures, preview, activation) and executions with their traces. */
export const studioArea: ConsoleArea = {
  tenantRoutes: (
    <>
      <Route path="device-types/:deviceTypeId/flow" element={page(<FlowStudioPage />)} />
      <Route path="flows/:flowId/versions/:version" element={page(<FlowVersionPage />)} />
      <Route path="executions" element={page(<ExecutionsPage />)} />
      <Route path="executions/:executionId" element={page(<ExecutionPage />)} />
    </>
  ),
  tenantNav: (tenantNumber, me) => (canTenantWide(me, tenantNumber, 'flows:read') ? [{ to: `/t/${tenantNumber}/executions`, label: 'Executions' }] : []),
};

import { lazy, Suspense, type ReactNode } from 'react';
import { Route } from 'react-router';
import { can, isPlatformAdmin } from '../auth/me';
import { Loading } from '../components/status';
import type { ConsoleArea } from './area';

// Each page is its own chunk: the console's first load stays within its budget.
const ReplaysPage = lazy(() => import('../pages/replays/ReplaysPage').then((module) => ({ default: module.ReplaysPage })));
const ReplayPage = lazy(() => import('../pages/replays/ReplayPage').then((module) => ({ default: module.ReplayPage })));
const FlowTemplatesPage = lazy(() => import('../pages/replays/FlowTemplatesPage').then((module) => ({ default: module.FlowTemplatesPage })));
const GlobalTemplatesPage = lazy(() => import('../pages/replays/GlobalTemplatesPage').then((module) => ({ default: module.GlobalTemplatesPage })));
const GlobalTemplatePage = lazy(() => import('../pages/replays/GlobalTemplatesPage').then((module) => ({ default: module.GlobalTemplatePage })));

const page = (element: ReactNode) => <Suspense fallback={<Loading what="the page" />}>{element}</Suspense>;

/** Replays with the dry-run diff, the flow-template catalog with its upgrade walk, and the global templates. */
export const replaysArea: ConsoleArea = {
  tenantRoutes: (
    <>
      <Route path="replays" element={page(<ReplaysPage />)} />
      <Route path="replays/:replayId" element={page(<ReplayPage />)} />
      <Route path="flow-templates" element={page(<FlowTemplatesPage />)} />
    </>
  ),
  platformRoutes: (
    <>
      <Route path="flow-templates" element={page(<GlobalTemplatesPage />)} />
      <Route path="flow-templates/:flowTemplateId" element={page(<GlobalTemplatePage />)} />
    </>
  ),
  tenantNav: (tenantNumber, me) =>
    can(me, tenantNumber, 'flows:read')
      ? [
          { to: `/t/${tenantNumber}/replays`, label: 'Replays' },
          { to: `/t/${tenantNumber}/flow-templates`, label: 'Flow templates' },
        ]
      : [],
  platformNav: (me) => (isPlatformAdmin(me) ? [{ to: '/flow-templates', label: 'Global flow templates' }] : []),
};

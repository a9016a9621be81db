import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route } from 'react-router';
import { canTenantWide, isPlatformAdmin } from '../auth/me';
import { Loading } from '../components/status';
import type { ConsoleArea } from './area';

// Loaded on first visit: the script editor (CodeMirror) stays out of the console's first load.
const BlocksPage = lazy(() => import('../pages/blocks/BlocksPage').then((module) => ({ default: module.BlocksPage })));
const BlockPage = lazy(() => import('../pages/blocks/BlockPage').then((module) => ({ default: module.BlockPage })));
const RawMessagesPage = lazy(() => import('../pages/blocks/RawMessagesPage').then((module) => ({ default: module.RawMessagesPage })));
const RawMessagePage = lazy(() => import('../pages/blocks/RawMessagePage').then((module) => ({ default: module.RawMessagePage })));
const ImportPage = lazy(() => import('../pages/blocks/ImportPage').then((module) => ({ default: module.ImportPage })));

const page = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<Loading what="the page" />}>
    <Page />
  </Suspense>
);

/** Custom blocks (tenant and global) with their versions and codec playground, raw messages and the legacy import. */
export const blocksArea: ConsoleArea = {
  tenantRoutes: (
    <>
      <Route path="blocks" element={page(BlocksPage)} />
      <Route path="blocks/:blockId" element={page(BlockPage)} />
      <Route path="raw-messages" element={page(RawMessagesPage)} />
      <Route path="raw-messages/:rawMessageId" element={page(RawMessagePage)} />
    </>
  ),
  platformRoutes: (
    <>
      <Route path="blocks" element={page(BlocksPage)} />
      <Route path="blocks/:blockId" element={page(BlockPage)} />
      <Route path="imports" element={page(ImportPage)} />
    </>
  ),
  tenantNav: (tenantNumber, me) => [
    ...(canTenantWide(me, tenantNumber, 'blocks:read') ? [{ to: `/t/${tenantNumber}/blocks`, label: 'Custom blocks' }] : []),
    ...(isPlatformAdmin(me) ? [{ to: `/t/${tenantNumber}/raw-messages`, label: 'Raw messages' }] : []),
  ],
  platformNav: (me) =>
    isPlatformAdmin(me)
      ? [
          { to: '/blocks', label: 'Global blocks' },
          { to: '/imports', label: 'Legacy import' },
        ]
      : [],
};

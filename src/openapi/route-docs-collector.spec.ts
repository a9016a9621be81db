import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Controller } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { PlatformAdminOnly } from '../shared/auth/principal';
import { ApiDocs } from '../shared/http/route-docs';
import { Route } from '../shared/http/routes';
import { collectRouteDocs, describeAccess } from './route-docs-collector';

const DOC = { summary: 'List things', description: 'Things of a tenant, ascending.' };

/** An application stand-in whose only module registers `controllers`. */
const appWith = (...controllers: unknown[]): INestApplication => {
  const modules = new Map([['m', { controllers: new Map(controllers.map((metatype, i) => [i, { metatype }])) }]]);
  return { get: (token: unknown) => (token === ModulesContainer ? modules : undefined) } as unknown as INestApplication;
};

describe('collectRouteDocs', () => {
  it('keys each route by operationId with its docs and its platform-admin metadata (class or route)', () => {
    @ApiDocs({ things_list: DOC })
    @Controller('v1')
    class ThingsController {
      @Route('get', 'things', { operationId: 'things_list', platformAdminOnly: true })
      list(): void {}

      @Route('get', 'things/:thingId', { operationId: 'things_get' })
      get(): void {}
    }
    @PlatformAdminOnly()
    @Controller('v1')
    class AdminController {
      @Route('get', 'admin', { operationId: 'admin_get' })
      get(): void {}
    }
    const docs = collectRouteDocs(appWith(ThingsController, AdminController));
    expect(docs.operations.get('things_list')).toEqual({ docs: DOC, platformAdminOnly: true });
    expect(docs.operations.get('things_get')).toEqual({ docs: undefined, platformAdminOnly: false });
    expect(docs.operations.get('admin_get')?.platformAdminOnly).toBe(true);
  });

  it('fails on docs for an operation the controller does not serve', () => {
    @ApiDocs({ things_gone: DOC })
    @Controller('v1')
    class StaleController {
      @Route('get', 'things', { operationId: 'things_list' })
      list(): void {}
    }
    expect(() => collectRouteDocs(appWith(StaleController))).toThrow('StaleController documents operations it does not serve: things_gone');
  });

  it('merges the examples of every controller and fails when two give one name different examples', () => {
    @ApiDocs({}, { schemas: { ThingResponse: { thingId: 't1' } }, parameters: { thingId: 't1', 'If-Match': '"3"' } })
    @Controller('v1')
    class ThingsController {}
    @ApiDocs({}, { parameters: { otherId: 'o1', 'If-Match': '"3"' } })
    @Controller('v1')
    class OthersController {}
    expect(collectRouteDocs(appWith(ThingsController, OthersController)).parameters).toEqual({ thingId: 't1', 'If-Match': '"3"', otherId: 'o1' });

    @ApiDocs({}, { parameters: { thingId: 't2' } })
    @Controller('v1')
    class ClashingController {}
    expect(() => collectRouteDocs(appWith(ThingsController, ClashingController))).toThrow(
      "ClashingController: parameter thingId has an example that differs from another controller's",
    );
  });
});

describe('describeAccess', () => {
  it('writes the access rule from the permission and its scope kind, or from platform-admin-only', () => {
    expect(describeAccess({ permission: 'devices:write', scope: 'S' }, false)).toBe(
      '**Access**: `devices:write` through a grant covering the target (its unit, or an ancestor with `includeDescendants`); platform administrators hold every permission. A visible target without the permission is 403 `missing_permission`.',
    );
    expect(describeAccess({ permission: 'flows:read', scope: 'T' }, false)).toContain('through a tenant-level grant (a grant on a unit is not enough)');
    expect(describeAccess({ permission: 'tenant:read', scope: '*' }, false)).toContain('through any effective grant in the tenant');
    expect(describeAccess(undefined, true)).toMatch(/^\*\*Access\*\*: platform administrators only\./);
    expect(describeAccess(undefined, false)).toBeUndefined();
  });
});

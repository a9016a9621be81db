import 'reflect-metadata';
import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';
import { lastValueFrom, of } from 'rxjs';
import { REQUIRED_PERMISSION } from '../access/require-permission';
import { ReadById, TENANT_NOT_FOUND, TenantCreate, TenantList, WriteById } from './routes';

class Example {
  list(): void {}
  create(): void {}
  get(): void {}
  disable(): void {}
}

const describeRoute = (decorator: MethodDecorator, name: keyof Example): ((key: string) => unknown) => {
  const descriptor = Object.getOwnPropertyDescriptor(Example.prototype, name)!;
  decorator(Example.prototype, name, descriptor);
  return (key: string) => Reflect.getMetadata(key, descriptor.value as object);
};

/** Runs the route's interceptor on `answer` and returns the headers it set. */
async function headersOf(read: (key: string) => unknown, answer: Record<string, unknown>, params: Record<string, string> = {}): Promise<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = { location: (value: string) => (headers.Location = value), setHeader: (name: string, value: string) => (headers[name] = value) };
  const context = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ params }) }) } as unknown as ExecutionContext;
  const [interceptor] = read(INTERCEPTORS_METADATA) as NestInterceptor[];
  await lastValueFrom(interceptor.intercept(context, { handle: () => of(answer) } as CallHandler) as ReturnType<CallHandler['handle']>);
  return headers;
}

describe('composite route decorators', () => {
  it('a tenant list is a GET with its operationId, permission, page type and the tenant 404', () => {
    const read = describeRoute(TenantList('tenants/:tenantNumber/things', { operationId: 'things_list', permission: 'devices:read', type: Example }), 'list');
    expect(read(PATH_METADATA)).toBe('tenants/:tenantNumber/things');
    expect(read(METHOD_METADATA)).toBe(0); // RequestMethod.GET
    expect(read(DECORATORS.API_OPERATION)).toEqual({ operationId: 'things_list' });
    expect(read(REQUIRED_PERMISSION)).toBe('devices:read');
    const responses = read(DECORATORS.API_RESPONSE) as Record<string, { description?: string }>;
    expect(Object.keys(responses).sort()).toEqual(['200', '404']);
    expect(responses['404'].description).toBe(TENANT_NOT_FOUND);
  });

  it('a create answers 201 with Location (from the answer, else the path) and ETag', async () => {
    const read = describeRoute(
      TenantCreate('tenants/:tenantNumber/things', { operationId: 'things_create', type: Example, location: '/v1/tenants/{tenantNumber}/things/{thingId}', etag: true }),
      'create',
    );
    expect(Object.keys(read(DECORATORS.API_RESPONSE) as object).sort()).toEqual(['201', '404']);
    expect(await headersOf(read, { thingId: 'a1', lockVersion: 1 }, { tenantNumber: '7' })).toEqual({ Location: '/v1/tenants/7/things/a1', ETag: '"1"' });
  });

  it('a read by id carries the existence-rule 404 unless the route names its own', () => {
    const read = describeRoute(ReadById('things/:thingId', { operationId: 'things_get', type: Example }), 'get');
    expect((read(DECORATORS.API_RESPONSE) as Record<string, { description?: string }>)['404'].description).toMatch(/^Missing, in another tenant/);
  });

  it('a POST action by id answers 200 and sets the new ETag', async () => {
    const read = describeRoute(WriteById('post', 'things/:thingId/disable', { operationId: 'things_disable', type: Example, etag: true, conflict: '`invalid_state`' }), 'disable');
    expect(read(HTTP_CODE_METADATA)).toBe(200);
    expect(Object.keys(read(DECORATORS.API_RESPONSE) as object).sort()).toEqual(['200', '404', '409']);
    expect(await headersOf(read, { lockVersion: 4 })).toEqual({ ETag: '"4"' });
  });
});

import type { Request } from 'express';
import { routeTemplateOf } from './route-template';

function requestOn(route: unknown, baseUrl = ''): Request {
  return { route, baseUrl } as Request;
}

describe('routeTemplateOf', () => {
  it('keeps a route without parameters as it is', () => {
    expect(routeTemplateOf(requestOn({ path: '/v1/devices' }))).toBe('/v1/devices');
  });

  it('writes each :param as {param}', () => {
    expect(routeTemplateOf(requestOn({ path: '/v1/tenants/:tenantId/devices/:device_id2' }))).toBe(
      '/v1/tenants/{tenantId}/devices/{device_id2}',
    );
  });

  it('prefixes the router mount point', () => {
    expect(routeTemplateOf(requestOn({ path: '/devices/:deviceId' }, '/v1'))).toBe('/v1/devices/{deviceId}');
  });

  it('answers / for the root route', () => {
    expect(routeTemplateOf(requestOn({ path: '/' }))).toBe('/');
    expect(routeTemplateOf(requestOn({ path: '' }))).toBe('/');
  });

  it('never contains the raw values of the request', () => {
    const req = { route: { path: '/v1/devices/:deviceId' }, baseUrl: '', path: '/v1/devices/42' } as Request;
    expect(routeTemplateOf(req)).not.toContain('42');
  });

  it.each([
    ['no matched route', undefined],
    ['a route without a path', {}],
    ['the global wildcard route', { path: '/{*path}' }],
    ['a bare wildcard', { path: '*' }],
    ['a wildcard under a prefix', { path: '/v1/files/*rest' }],
    ['a regular-expression route', { path: /^\/v1\/devices\/\d+$/ }],
    ['a list of paths', { path: ['/a', '/b'] }],
  ])('answers unmatched for %s', (_case, route) => {
    expect(routeTemplateOf(requestOn(route))).toBe('unmatched');
  });
});

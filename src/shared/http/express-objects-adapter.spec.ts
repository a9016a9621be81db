import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { ExpressObjectsAdapter } from './express-objects-adapter';

describe('ExpressObjectsAdapter', () => {
  it("creates each request and response with Express's prototypes, and Express answers through them", async () => {
    const adapter = new ExpressObjectsAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    const server = adapter.getHttpServer() as Server;
    const born: boolean[] = [];
    server.prependListener('request', (req, res) => born.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response));
    app.post('/echo', (req, res) => {
      res.status(201).json({ path: req.path, ip: typeof req.ip, header: req.get('x-probe') });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/echo?q=1`, { method: 'POST', headers: { 'x-probe': 'yes' }, body: 'ignored' });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ path: '/echo', ip: 'string', header: 'yes' });
      expect(born).toEqual([true, true]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

import { randomBytes } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import Aedes, { createBroker } from 'aedes';
import { connectAsync, MqttClient } from 'mqtt';
import { freePort } from './free-port';

/** A PUBACK the broker received from a subscriber: proof that the subscriber acknowledged that message. */
export interface AckRecord {
  clientId: string;
  topic: string;
  payload: Buffer;
}

export interface TestBroker {
  url: string;
  port: number;
  aedes: Aedes;
  acks: AckRecord[];
  /** One entry per CONNECT accepted, with the client's clean-session flag. */
  connects: { clientId: string; clean: boolean }[];
  subscriptions: { clientId: string; topic: string; qos: number }[];
  /** Whether `clientId` acknowledged a message with exactly these bytes. */
  acked(clientId: string, payload: Buffer): boolean;
  /** Closes every connection at once (as a crashed broker would) and stops listening; the sessions are lost. */
  close(): Promise<void>;
}

/**
 * A real MQTT broker (aedes, in memory) in this process on 127.0.0.1, on `port` or a free one; starting another on
 * the same port after close() is a broker restart.
 */
export async function startTestBroker(port?: number): Promise<TestBroker> {
  const aedes = createBroker();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    aedes.handle(socket);
  });
  const listenPort = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  const broker: TestBroker = {
    url: `mqtt://127.0.0.1:${listenPort}`,
    port: listenPort,
    aedes,
    acks: [],
    connects: [],
    subscriptions: [],
    acked: (clientId, payload) => broker.acks.some((ack) => ack.clientId === clientId && ack.payload.equals(payload)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  aedes.on('client', (client) => broker.connects.push({ clientId: client.id, clean: client.clean }));
  aedes.on('subscribe', (subscriptions, client) => {
    for (const { topic, qos } of subscriptions) broker.subscriptions.push({ clientId: client.id, topic, qos });
  });
  aedes.on('ack', (packet, client) => {
    if (packet.cmd !== 'publish') return;
    broker.acks.push({ clientId: client.id, topic: packet.topic, payload: Buffer.from(packet.payload) });
  });
  return broker;
}

/** A network server's side: a plain client that publishes. */
export function publisherFor(broker: TestBroker): Promise<MqttClient> {
  return connectAsync(broker.url, { clientId: `publisher-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0 });
}

import { createHash, randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { connect, IConnackPacket, IPublishPacket, ISubscriptionGrant, MqttClient } from 'mqtt';
import { Counter, Gauge } from 'prom-client';
import { AppConfig, MqttSettings } from '../../../config/app-config';
import { ReportedCheck, ReportedChecks } from '../../../health/reported-checks';
import { INGESTION_MESSAGES_TOTAL, INGESTION_MQTT_CONNECTED } from '../ingest/ingestion-metrics';
import { INGEST_BODY_LIMIT, IntakeMessage, UplinkIntake } from '../ingest/uplink-intake';
import type { MapResult } from '../ingest/uplink-mapping';
import { looksLikeJson, mqttMapper, reconnectDelayMs } from './mqtt-message';

/** Deliveries of the same message the database refused, while it stores others, before it is kept as rejected. */
export const POISON_AFTER_REFUSALS = 3;
/** Messages taken but not yet acknowledged; at this many, mqtt.js is not handed the next one until one settles. */
export const MAX_UNACKNOWLEDGED = 256;
const MAX_TRACKED_REFUSALS = 10_000;
const WARN_INTERVAL_MS = 60_000;
const END_TIMEOUT_MS = 2_000;
/** Reported to mqtt.js for a message it must not acknowledge: this class sends its PUBACK itself, or never. */
const NOT_ACKNOWLEDGED_HERE = new Error('acknowledged by the subscriber after the commit, or not at all');

/** A taken message waiting for its PUBACK, which goes out on its own connection once it and every earlier one settled. */
interface Delivery {
  stream: MqttClient['stream'];
  messageId: number | undefined;
  qos: number;
  /** Committed, or needing no row: its PUBACK may be sent. */
  settled: boolean;
}

/** An MQTT 3.1.1 PUBACK (fixed header 0x40, remaining length 2, the packet identifier). */
function puback(messageId: number): Buffer {
  return Buffer.from([0x40, 0x02, messageId >> 8, messageId & 0xff]);
}

/** The mapping of a message the database refused repeatedly: stored as rejected, exact bytes only. */
const refused = (): MapResult => ({
  kind: 'malformed',
  violations: [{ path: 'body', rule: 'format', message: 'The database refused the mapped message.' }],
});

/**
 * The MQTT ingestion source (platform scope, configured by MQTT_*): one broker connection, MQTT 3.1.1 with a
 * persistent session (clean session off, a stable client id), subscriptions at QoS 1.
 *
 * PUBACK after commit. Each message is stored through the shared intake (exact bytes, the format's webhook
 * mapping and dedup, platform scope) and acknowledged only once its row is committed. mqtt.js acknowledges a
 * message when `handleMessage` calls back without an error and hands over the next one only then, which would
 * make every message wait for its own commit (one transaction each). So `handleMessage` calls back at once with
 * an error (mqtt.js then sends no PUBACK and moves on) and the message joins the writer's group commit; its PUBACK
 * is written here once it and every message before it are committed, in the order received, as MQTT requires.
 * At most MAX_UNACKNOWLEDGED messages wait at a time; beyond that mqtt.js is held back (backpressure). mqtt.js's
 * `customHandleAcks` is no alternative: it applies under MQTT 5 only (under 3.1.1 mqtt.js replaces it with an
 * immediate acknowledgement), it is just as serial, and The Things Stack's broker speaks 3.1.1 only.
 *
 * A store that fails (database down) is not acknowledged, nor is anything after it. A broker sends an
 * unacknowledged message again only when the session resumes, so the connection is then dropped (nothing further
 * is taken on it) and reopened with backoff; the broker redelivers from the first unacknowledged message on
 * (messages after the failed one that were committed meanwhile come again and are answered by dedup). A message
 * the database keeps refusing while it stores others (a poison message) is stored as rejected after
 * POISON_AFTER_REFUSALS deliveries and acknowledged, so one message cannot stall the topic.
 */
@Injectable()
export class MqttSubscriber implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MQTT');
  private settings: MqttSettings | null = null;
  private client: MqttClient | null = null;
  /**
   * `starting` until the first connection or failure, then whether the broker connection was last logged up or
   * down; `cycling` while the connection is dropped on purpose to have unacknowledged messages redelivered (the
   * broker is fine: those reconnects are not logged as outages).
   */
  private phase: 'starting' | 'up' | 'down' | 'cycling' = 'starting';
  /** The current connection is being dropped on purpose after a failed store. */
  private dropping = false;
  private downSince = 0;
  private lastError: string | null = null;
  /** Reconnect attempts since the last CONNACK. */
  private attempt = 0;
  /** Connections dropped in a row because a store failed; reset by a stored message. */
  private storeFailures = 0;
  /** A store failed on this connection: nothing more is taken until the session resumes. */
  private poisoned = false;
  private stopping = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** This connection's taken messages in the order received, until acknowledged. */
  private deliveries: Delivery[] = [];
  /** Hands mqtt.js the next message; held while MAX_UNACKNOWLEDGED messages wait. */
  private resume: (() => void) | null = null;
  /** Stores not finished yet, of any connection. */
  private readonly storing = new Set<Promise<void>>();
  /** Failed stores per message (topic and bytes), forgotten once it is stored; bounded, oldest dropped first. */
  private readonly refusals = new Map<string, number>();
  private readonly lastWarned = new Map<string, number>();
  private readonly grantsReported = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly intake: UplinkIntake,
    private readonly checks: ReportedChecks,
    @InjectMetric(INGESTION_MESSAGES_TOTAL) private readonly messages: Counter<string>,
    @InjectMetric(INGESTION_MQTT_CONNECTED) private readonly connectedGauge: Gauge<string>,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.mqtt) return;
    this.checks.register('mqtt', () => this.check());
    this.start(this.config.mqtt);
  }

  /** Stop taking messages, let the ones being stored commit and be acknowledged, then leave the broker. */
  async beforeApplicationShutdown(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await within(Promise.allSettled([...this.storing]), this.config.shutdownTimeoutMs);
    await new Promise<void>((resolve) => {
      // A clean DISCONNECT keeps the session (and what the broker holds for it) for the next start.
      const force = setTimeout(() => {
        client.stream.destroy();
        resolve();
      }, END_TIMEOUT_MS);
      client.end(!client.connected, () => {
        clearTimeout(force);
        resolve();
      });
    });
    this.connectedGauge.set(0);
    this.logger.log('MQTT subscriber stopped');
  }

  get isConnected(): boolean {
    return this.client?.connected === true;
  }

  /** Messages taken on this connection and not acknowledged yet (being stored, or behind one that is). */
  get unacknowledged(): number {
    return this.deliveries.length;
  }

  /** Shutdown has begun: no further message is taken (those being stored still commit and are acknowledged). */
  get isStopping(): boolean {
    return this.stopping;
  }

  private start(settings: MqttSettings): void {
    this.settings = settings;
    const client = connect(settings.url, {
      protocolVersion: 4,
      clientId: settings.clientId,
      clean: false,
      username: settings.username ?? undefined,
      password: settings.password ?? undefined,
      keepalive: 30,
      connectTimeout: 10_000,
      // Reconnects are scheduled here, with a growing delay; mqtt.js's own would retry at a fixed period.
      reconnectPeriod: 0,
      resubscribe: false,
    });
    client.handleMessage = (packet, done) => this.handle(packet, done);
    client.on('connect', (connack) => this.connected(connack));
    client.on('close', () => this.closed());
    client.on('error', (error) => {
      this.lastError = error.message;
    });
    this.client = client;
    this.logger.log(`MQTT subscriber connecting to ${settings.url} as ${settings.clientId} (${settings.format}; topics ${settings.topics.join(', ')})`);
  }

  private check(): ReportedCheck {
    if (this.isConnected) return { status: 'up', latencyMs: 0 };
    return { status: 'down', latencyMs: 0, message: this.phase === 'starting' ? 'connecting to the broker' : 'not connected to the broker' };
  }

  private connected(connack: IConnackPacket): void {
    const settings = this.settings!;
    this.attempt = 0;
    this.poisoned = false;
    this.deliveries = [];
    this.connectedGauge.set(1);
    const session = connack.sessionPresent ? 'session resumed' : 'new session';
    if (this.phase === 'cycling') {
      this.logger.debug(`MQTT reconnected (${session}) for the unacknowledged messages`);
    } else if (this.phase === 'down') {
      this.logger.log(`MQTT reconnected to ${settings.url} after ${Math.round((Date.now() - this.downSince) / 1000)} s (${session})`);
    } else {
      this.logger.log(`MQTT connected to ${settings.url} (${session})`);
    }
    this.phase = 'up';
    // Subscribing on every connection: a broker that lost the session (restarted without persistence) needs it,
    // and a changed MQTT_TOPICS takes effect; for a resumed session it replaces the same subscriptions.
    this.client!.subscribe([...settings.topics], { qos: 1 }, (error, granted) => {
      if (error) {
        if (!this.stopping) this.logger.warn(`MQTT subscribe failed (${error.message}); retried on the next connection`);
        return;
      }
      for (const grant of granted ?? []) this.reportGrant(grant);
    });
  }

  private closed(): void {
    this.connectedGauge.set(0);
    // Packet ids belong to their connection: what was not acknowledged on it is the broker's to send again.
    this.deliveries = [];
    this.resume = null;
    if (this.stopping) return;
    const settings = this.settings!;
    const reason = this.lastError ?? 'connection closed';
    this.lastError = null;
    const delay = reconnectDelayMs(Math.max(this.attempt, this.storeFailures - 1));
    this.attempt += 1;
    // One line per change of state; the attempts in between are debug output.
    if (this.dropping) {
      this.dropping = false;
      this.phase = 'cycling';
      this.logger.debug(`MQTT connection dropped for redelivery; reconnecting in ${delay} ms`);
    } else {
      if (this.phase === 'up' || this.phase === 'cycling') {
        this.logger.warn(`MQTT disconnected from ${settings.url} (${reason}); reconnecting with backoff`);
      } else if (this.phase === 'starting') {
        this.logger.warn(`MQTT broker ${settings.url} not reachable (${reason}); retrying with backoff`);
      } else {
        this.logger.debug(`MQTT reconnect attempt failed (${reason}); next in ${delay} ms`);
      }
      if (this.phase !== 'down') {
        this.downSince = Date.now();
        this.phase = 'down';
      }
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopping) this.client?.reconnect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private handle(packet: IPublishPacket, next: (error?: Error) => void): void {
    if (this.stopping || this.poisoned) {
      // Not taken and not acknowledged: the broker delivers it again on the next session.
      next(NOT_ACKNOWLEDGED_HERE);
      return;
    }
    const delivery: Delivery = { stream: this.client!.stream, messageId: packet.messageId, qos: packet.qos, settled: false };
    this.deliveries.push(delivery);
    const stored = this.take(packet).then(
      () => {
        this.storeFailures = 0;
        delivery.settled = true;
        this.acknowledge();
      },
      (error: unknown) => this.storeFailed(packet, delivery, error),
    );
    this.storing.add(stored);
    void stored.finally(() => this.storing.delete(stored));
    // Holding `next` holds every packet behind it, PINGRESP included: a database stuck for longer than the
    // keepalive makes mqtt.js drop the connection, and the broker redelivers what was not acknowledged.
    if (this.deliveries.length < MAX_UNACKNOWLEDGED) next(NOT_ACKNOWLEDGED_HERE);
    else this.resume = () => next(NOT_ACKNOWLEDGED_HERE);
  }

  /** PUBACKs for the settled messages at the head of the line, on the connection each came on. */
  private acknowledge(): void {
    while (this.deliveries[0]?.settled) {
      const { stream, messageId, qos } = this.deliveries.shift()!;
      if (qos > 0 && messageId !== undefined && stream === this.client?.stream && stream.writable) stream.write(puback(messageId));
    }
    if (this.resume && this.deliveries.length < MAX_UNACKNOWLEDGED) {
      const resume = this.resume;
      this.resume = null;
      resume();
    }
  }

  /** Resolves once the message is committed (or needs no row); rejects when it could not be stored. */
  private async take(packet: IPublishPacket): Promise<void> {
    const settings = this.settings!;
    const body = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (body.length > INGEST_BODY_LIMIT) {
      this.messages.inc({ source: 'mqtt', status: 'too_large' });
      this.warnEvery('too_large', `MQTT message of ${body.length} bytes on ${packet.topic} is over 256 KiB: acknowledged, not stored`);
      return;
    }
    const map = mqttMapper(settings.format, packet.topic);
    if (!map) {
      this.intake.ignored('mqtt');
      return;
    }
    const message: IntakeMessage = {
      source: 'mqtt',
      event: 'uplink',
      credentialId: null,
      tenantId: null,
      correlationId: randomUUID(),
      contentType: 'application/json',
      body,
      map,
    };
    try {
      const outcome = await this.intake.take(message);
      if (this.refusals.size > 0) this.refusals.delete(refusalKey(packet.topic, body));
      if (outcome.kind === 'rejected' && settings.format === 'chirpstack' && !looksLikeJson(body)) {
        this.warnEvery(
          'protobuf',
          `ChirpStack publishes Protobuf on ${packet.topic}: set json=true in [integration.mqtt] of chirpstack.toml (such messages are stored as rejected)`,
        );
      }
    } catch (error) {
      if (packet.qos === 0 || !this.refusedRepeatedly(refusalKey(packet.topic, body))) throw error;
      // Fails as well while the database is down: then nothing is acknowledged, as for any failed store.
      await this.intake.take({ ...message, map: refused });
      this.refusals.delete(refusalKey(packet.topic, body));
      this.logger.error(`MQTT message on ${packet.topic} refused by the database ${POISON_AFTER_REFUSALS} times: stored as rejected and acknowledged`);
    }
  }

  /** Counts a failed store of this message; true once it has failed POISON_AFTER_REFUSALS times. */
  private refusedRepeatedly(key: string): boolean {
    const count = (this.refusals.get(key) ?? 0) + 1;
    this.refusals.delete(key);
    this.refusals.set(key, count);
    if (this.refusals.size > MAX_TRACKED_REFUSALS) this.refusals.delete(this.refusals.keys().next().value!);
    return count >= POISON_AFTER_REFUSALS;
  }

  private storeFailed(packet: IPublishPacket, delivery: Delivery, error: unknown): void {
    const reason = (error as Error).message;
    if (packet.qos === 0) {
      // Nothing to withhold: a QoS 0 message is never delivered again, and must not hold back the ones after it.
      this.warnEvery('lost', `MQTT QoS 0 message on ${packet.topic} lost: not stored (${reason})`);
      delivery.settled = true;
      this.acknowledge();
      return;
    }
    // The delivery stays unsettled at its place in line: neither it nor anything after it is acknowledged.
    if (this.poisoned || delivery.stream !== this.client?.stream) return;
    this.poisoned = true;
    this.storeFailures += 1;
    this.warnEvery('store_failed', `MQTT message on ${packet.topic} not stored (${reason}): not acknowledged; reconnecting so the broker delivers it again`);
    // Dropped without DISCONNECT; the session stays, and the broker redelivers once it resumes.
    this.dropping = true;
    this.client.end(true);
  }

  private reportGrant(grant: ISubscriptionGrant): void {
    const key = `${grant.topic}\u0000${grant.qos}`;
    if (grant.qos === 1 || this.grantsReported.has(key)) return;
    this.grantsReported.add(key);
    if (grant.qos === 128) this.logger.error(`MQTT broker refused the subscription to ${grant.topic} (check the user's ACL)`);
    else if (grant.qos === 0) {
      this.logger.warn(`MQTT broker granted QoS 0 on ${grant.topic}: its messages arrive at most once, with no acknowledgement after commit`);
    }
  }

  /** At most one such warning a minute, however many messages cause it. */
  private warnEvery(kind: string, message: string): void {
    const now = Date.now();
    if (now - (this.lastWarned.get(kind) ?? -Infinity) < WARN_INTERVAL_MS) return;
    this.lastWarned.set(kind, now);
    this.logger.warn(message);
  }
}

function refusalKey(topic: string, body: Buffer): string {
  return createHash('sha256').update(topic).update('\u0000').update(body).digest('base64');
}

function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

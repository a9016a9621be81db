import type { MqttSettings } from '../../../config/app-config';
import { MapResult, mapChirpStackUp, mapTtsMessage } from '../ingest/uplink-mapping';

/**
 * How a message on `topic` maps, or null when it is not an uplink and is acknowledged without being stored.
 * ChirpStack v4 publishes each event type on its own topic (`application/{applicationId}/device/{devEui}/event/{event}`)
 * with the same JSON body as its HTTP integration, so only a last topic level of `up` is an uplink. The Things
 * Stack's messages say what they are in the body (`uplink_message`), as its webhook's do.
 */
export function mqttMapper(format: MqttSettings['format'], topic: string): ((parsed: unknown) => MapResult) | null {
  if (format === 'tts') return mapTtsMessage;
  return topic.slice(topic.lastIndexOf('/') + 1) === 'up' ? mapChirpStackUp : null;
}

/** A JSON body starts with `{` or `[` after optional whitespace; ChirpStack's Protobuf encoding does not. */
export function looksLikeJson(body: Buffer): boolean {
  return /^\s*[[{]/.test(body.toString('latin1', 0, 64));
}

export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * The wait before reconnect attempt `attempt` (0 for the first after a loss): doubling from one second up to 30,
 * with ±20 % jitter so several replicas that lost the same broker do not return in step.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

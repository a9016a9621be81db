/**
 * Examples of the current value and measurement schemas and of the parameters of their routes, attached to the
 * telemetry controller with @ApiDocs.
 */
import { CURSOR, DEVICE_ID, DEVICE_TYPE_ID, TENANT_ID, field } from '../../shared/http/example-values';

const FIELD2_ID = 'd3d94468-02a4-4c3b-9e6f-8a7b6c5d4e3f';

const batteryField = {
  ...field,
  deviceFieldDefinitionId: FIELD2_ID,
  key: 'battery.voltage',
  name: 'Battery voltage',
  description: '',
  unit: 'V',
  measurementType: 'gauge',
  lockVersion: 1,
  createdAt: '2026-01-20T13:48:02.731Z',
  updatedAt: '2026-01-20T13:48:02.731Z',
};

const measurementPoint = { fieldKey: 'volume.total', observedAt: '2026-03-14T10:00:00.000Z', value: 1532.418 };
const measurementBucket = { fieldKey: 'volume.total', bucketStart: '2026-03-14T10:00:00.000Z', value: 1532.9, count: 4 };

export const TELEMETRY_SCHEMA_EXAMPLES: Record<string, unknown> = {
  MeasurementPoint: measurementPoint,
  MeasurementBucket: measurementBucket,
  CurrentValueEntry: { definition: field, currentValue: 1532.418, observedAt: '2026-03-14T10:15:00.000Z' },
  CurrentValuesResponse: {
    tenantId: TENANT_ID,
    deviceId: DEVICE_ID,
    deviceTypeId: DEVICE_TYPE_ID,
    fields: [
      { definition: field, currentValue: 1532.418, observedAt: '2026-03-14T10:15:00.000Z' },
      { definition: batteryField, currentValue: 3.61, observedAt: '2026-03-14T06:00:00.000Z' },
    ],
  },
  MeasurementPage: {
    deviceId: DEVICE_ID,
    items: [
      measurementPoint,
      { fieldKey: 'volume.total', observedAt: '2026-03-14T10:15:00.000Z', value: 1532.877 },
      { fieldKey: 'volume.total', observedAt: '2026-03-14T10:30:00.000Z', value: 1533.204 },
    ],
    nextCursor: CURSOR,
  },
};

export const TELEMETRY_PARAMETER_EXAMPLES: Record<string, unknown> = {
  deviceId: DEVICE_ID,
  from: '2026-03-14T00:00:00.000Z',
  to: '2026-03-15T00:00:00.000Z',
};

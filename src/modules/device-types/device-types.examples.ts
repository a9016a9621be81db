/**
 * Examples of the device type and field schemas and of the parameters of their routes, attached to the device types
 * controller with @ApiDocs.
 */
import { DEVICE_TYPE_ID, IF_MATCH, TENANT_ID, TENANT_NUMBER, field, page } from '../../shared/http/example-values';

const deviceType = {
  deviceTypeId: DEVICE_TYPE_ID,
  tenantId: TENANT_ID,
  key: 'water-meter-lw',
  name: 'LoRaWAN water meter',
  description: 'Ultrasonic water meter reporting volume, flow and battery every 15 minutes.',
  status: 'active',
  lockVersion: 3,
  createdAt: '2026-01-20T13:45:00.120Z',
  updatedAt: '2026-02-18T16:20:44.902Z',
};

export const DEVICE_TYPES_SCHEMA_EXAMPLES: Record<string, unknown> = {
  DeviceTypeResponse: deviceType,
  DeviceTypePage: page([deviceType], 4),
  CreateDeviceTypeRequest: { key: 'water-meter-lw', name: 'LoRaWAN water meter', description: 'Ultrasonic water meter reporting volume, flow and battery every 15 minutes.' },
  UpdateDeviceTypeRequest: { description: 'Ultrasonic water meter (firmware 2.x) reporting every 15 minutes.' },
  DeviceFieldResponse: field,
  CreateDeviceFieldRequest: {
    key: 'volume.total',
    name: 'Total volume',
    description: 'Cumulative volume through the meter since installation.',
    schemaRef: 'platform://schemas/number/v1',
    unit: 'm³',
    storageTargets: ['current', 'timeseries'],
    measurementType: 'counter',
  },
  UpdateDeviceFieldRequest: { name: 'Total volume (cumulative)', unit: 'm³' },

};

export const DEVICE_TYPES_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  deviceTypeId: DEVICE_TYPE_ID,
  key: 'volume.total',
  'If-Match': IF_MATCH,
};

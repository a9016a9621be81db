// Uplink room sensor: The Things Stack / ChirpStack v4 payload formatter (decodeUplink).
//
// fPort 2, 7 bytes, big-endian:
//   bytes 0-1  int16   temperature, 0.1 °C    (0x00E1 = 22.5 °C, 0xFF9C = -10.0 °C)
//   byte  2    uint8   relative humidity, 0.5 % steps (0x78 = 60 %)
//   bytes 3-4  uint16  CO2, ppm
//   bytes 5-6  uint16  battery, mV (reported in volts)
// Any other port, or fewer than 7 bytes, is an error.
function decodeUplink(input) {
  var bytes = input.bytes;
  if (input.fPort !== 2) {
    return { errors: ["unknown fPort " + input.fPort] };
  }
  if (bytes.length < 7) {
    return { errors: ["payload too short: " + bytes.length + " bytes, expected 7"] };
  }
  var raw = (bytes[0] << 8) | bytes[1];
  var temperature = (raw & 0x8000 ? raw - 0x10000 : raw) / 10;
  var batteryMv = (bytes[5] << 8) | bytes[6];
  var warnings = batteryMv < 2500 ? ["battery low: " + batteryMv + " mV"] : [];
  return {
    data: {
      temperature: temperature,
      humidity: bytes[2] / 2,
      co2: (bytes[3] << 8) | bytes[4],
      battery: batteryMv / 1000
    },
    warnings: warnings
  };
}

import { DISABLE_REACTIVATE, StatusTransitions } from './status-transitions';

describe('StatusTransitions', () => {
  const units = new StatusTransitions('organization_unit', DISABLE_REACTIVATE);
  const devices = new StatusTransitions<'active' | 'disabled' | 'retired', 'disable' | 'reactivate' | 'retire'>('device', [
    { from: 'active', action: 'disable', to: 'disabled', event: 'disabled' },
    { from: 'disabled', action: 'reactivate', to: 'active', event: 'reactivated' },
    { from: 'active', action: 'retire', to: 'retired', event: 'retired' },
    { from: 'disabled', action: 'retire', to: 'retired', event: 'retired' },
  ]);

  it('answers the listed move', () => {
    expect(units.move('active', 'disable')).toMatchObject({ to: 'disabled', event: 'disabled' });
    expect(devices.move('disabled', 'retire')).toMatchObject({ to: 'retired' });
  });

  it('refuses the same status again with invalid_state and currentStatus', () => {
    expect(() => units.move('disabled', 'disable')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: 'The organization unit is already disabled.', details: { reason: 'invalid_state', currentStatus: 'disabled' } }),
    );
  });

  it('refuses a move out of a terminal state', () => {
    expect(() => devices.move('retired', 'reactivate')).toThrow(
      expect.objectContaining({ message: 'A retired device cannot be reactivated.', details: { reason: 'invalid_state', currentStatus: 'retired' } }),
    );
  });
});

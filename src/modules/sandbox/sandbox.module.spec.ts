import { Test } from '@nestjs/testing';
import { AppConfig, ConfigValidationError } from '../../config/app-config';
import { AppConfigModule } from '../../config/config.module';
import { SandboxModule } from './sandbox.module';
import { ScriptSandbox } from './script-sandbox';

describe('sandbox configuration', () => {
  it('defaults to 50 ms, 64 MiB and 100 isolates', () => {
    const config = AppConfig.fromEnv({});
    expect([config.sandboxTimeoutMs, config.sandboxMemoryMb, config.sandboxMaxIsolates]).toEqual([50, 64, 100]);
  });

  it.each([
    ['SANDBOX_TIMEOUT_MS', '0'],
    ['SANDBOX_TIMEOUT_MS', '10001'],
    ['SANDBOX_MEMORY_MB', '7'],
    ['SANDBOX_MEMORY_MB', '4097'],
    ['SANDBOX_MAX_ISOLATES', '0'],
    ['SANDBOX_MAX_ISOLATES', '1.5'],
  ])('rejects %s=%s', (variable, value) => {
    expect(() => AppConfig.fromEnv({ [variable]: value })).toThrow(ConfigValidationError);
    expect(() => AppConfig.fromEnv({ [variable]: value })).toThrow(variable);
  });
});

describe('SandboxModule', () => {
  it('provides ScriptSandbox with the configured limits', async () => {
    const config = AppConfig.fromEnv({ SANDBOX_TIMEOUT_MS: '30', SANDBOX_MEMORY_MB: '32', SANDBOX_MAX_ISOLATES: '2' });
    const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(config), SandboxModule] }).compile();
    const sandbox = moduleRef.get(ScriptSandbox);
    try {
      const compiled = await sandbox.compile('function transform() { for (;;) {} }');
      if (!compiled.ok) throw new Error('does not compile');
      const outcome = await sandbox.invoke('tenant', 'version', compiled.artifact, { payload: null, values: {}, input: {} }, {} as never);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'timeout', message: 'The script exceeded the time limit of 30 ms.' } });
    } finally {
      await moduleRef.close();
    }
  });
});

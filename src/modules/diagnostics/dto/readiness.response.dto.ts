import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ComponentCheck {
  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  status!: 'up' | 'down';

  @ApiProperty({ type: 'integer', minimum: 0, example: 3, description: 'How long the check took.' })
  latencyMs!: number;

  @ApiPropertyOptional({ example: 'no answer within 1000 ms', description: 'Why the component is down; never driver text.' })
  message?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, example: 2, description: 'Migrations only: how many are not applied yet.' })
  pending?: number;
}

export class ReadinessChecks {
  @ApiProperty({ type: ComponentCheck, description: 'PostgreSQL answers `SELECT 1` within one second. Critical.' })
  database!: ComponentCheck;

  @ApiProperty({ type: ComponentCheck, description: 'Every migration of this build is applied. Critical.' })
  migrations!: ComponentCheck;

  @ApiProperty({ type: ComponentCheck, description: 'The script sandbox host compiles a trivial script. Reported, never makes the service unready.' })
  sandbox!: ComponentCheck;

  @ApiPropertyOptional({
    type: ComponentCheck,
    description: 'Only when MQTT_ENABLED: `up` while connected to the broker. Reported, never makes the service unready.',
  })
  mqtt?: ComponentCheck;
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ready', 'not_ready'], example: 'ready', description: '`ready` when every critical check is up (the `/readyz` rule).' })
  status!: 'ready' | 'not_ready';

  @ApiProperty({ type: ReadinessChecks })
  checks!: ReadinessChecks;
}

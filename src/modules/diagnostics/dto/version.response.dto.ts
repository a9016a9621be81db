import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AppConfig } from '../../../config/app-config';

export class VersionResponse {
  @ApiProperty({ example: '0.1.0' })
  version!: string;

  @ApiPropertyOptional()
  gitCommit?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  builtAt?: string;

  @ApiProperty({ enum: ['v1'] })
  apiVersion!: 'v1';

  static of(config: AppConfig): VersionResponse {
    return {
      version: config.version,
      ...(config.gitCommit ? { gitCommit: config.gitCommit } : {}),
      ...(config.builtAt ? { builtAt: new Date(config.builtAt).toISOString() } : {}),
      apiVersion: 'v1',
    };
  }
}

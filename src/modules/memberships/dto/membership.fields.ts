import { ApiPropertyOptional } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsIn, IsString } from 'class-validator';
import { TENANT_ROLES } from '../../../shared/access/permissions';
import { WhenPresent } from '../../../shared/validation/fields';

export const MEMBERSHIP_STATUSES = ['active', 'disabled'] as const;

export const OptionalRole = (description?: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ enum: TENANT_ROLES, description }), WhenPresent(), IsString(), IsIn([...TENANT_ROLES]));

export const OptionalIncludeDescendants = (description?: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ type: 'boolean', description }), WhenPresent(), IsBoolean());

import { ApiProperty } from '@nestjs/swagger';

export class ValidationIssueResponse {
  @ApiProperty({ enum: ['error', 'warning'] })
  severity!: 'error' | 'warning';

  @ApiProperty({
    description:
      'Errors: `cycle_detected`, `multiple_inputs`, `invalid_port`, `unknown_block`, `block_version_not_released`, `block_version_deprecated`, `invalid_configuration`, `unknown_field`, `field_target_mismatch`, `schema_ref_mismatch`, `undeclared_parameter`, `parameter_type_mismatch`, `unknown_email_template`. Warnings: `email_template_inactive`, `unreachable_output`, `dead_end_node` (and `unknown_field` for a field deprecated after the version\'s release).',
  })
  code!: string;

  @ApiProperty({ description: 'Into the version, e.g. `graph.nodes[2].configuration.reads[0].offset`, `graph.edges[1].fromPort`.' })
  path!: string;

  @ApiProperty()
  message!: string;
}

/** The compile report of one version against the current fields and blocks. */
export class ValidationReportResponse {
  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ description: 'No issue of severity `error`.' })
  valid!: boolean;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'What the release would record: SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}.' })
  checksum!: string;

  @ApiProperty({ type: [ValidationIssueResponse] })
  issues!: ValidationIssueResponse[];
}

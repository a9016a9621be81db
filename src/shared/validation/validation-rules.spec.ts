import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsEnum,
  IsHexColor,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  validate,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import type { FieldViolation } from '../errors/error-codes';
import { Length, MaxLength, MinLength } from './text-length';
import { toFieldViolations, ValidationLocation } from './validation-rules';

enum Color {
  Red = 'red',
  Blue = 'blue',
}

/** A custom constraint named after its rule, as the validation-rules header asks. */
const MustBeTrue = () => ValidateBy({ name: 'must_be_true', validator: { validate: (value: unknown) => value === true } });

class ItemDto {
  @IsString()
  @MaxLength(5)
  name!: string;
}

class AddressDto {
  @IsString()
  city!: string;
}

class OrderDto {
  @IsString()
  @IsNotEmpty()
  title!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  quantity?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  items?: ItemDto[];
}

class RulesDto {
  @IsOptional() @IsUUID() id?: string;
  @IsOptional() @Matches(/^[a-z]+$/) slug?: string;
  @IsOptional() @IsIn(['asc', 'desc']) order?: string;
  @IsOptional() @IsEnum(Color) color?: Color;
  @IsOptional() @MinLength(3) short?: string;
  @IsOptional() @Length(1, 5) label?: string;
  @IsOptional() @ArrayMinSize(1) atLeastOne?: string[];
  @IsOptional() @ArrayUnique() distinct?: string[];
  @IsOptional() @IsHexColor() hex?: string;
  @IsOptional() @MustBeTrue() accepted?: boolean;
}

/** Validates like RequestValidationPipe does (whitelist, forbid unknown properties and values). */
async function violationsOf<T extends object>(
  dto: new () => T,
  plain: Record<string, unknown>,
  location: ValidationLocation = 'body',
): Promise<FieldViolation[]> {
  const errors = await validate(plainToInstance(dto, plain), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
  });
  return toFieldViolations(errors, location);
}

async function ruleOf(plain: Record<string, unknown>): Promise<string | undefined> {
  const violations = await violationsOf(RulesDto, plain);
  expect(violations).toHaveLength(1);
  return violations[0]?.rule;
}

describe('toFieldViolations', () => {
  it('reports nothing for a valid object', async () => {
    await expect(
      violationsOf(OrderDto, { title: 'Order', quantity: 2, address: { city: 'Oslo' }, items: [{ name: 'bolt' }] }),
    ).resolves.toEqual([]);
  });

  describe('paths', () => {
    it('prefixes top-level properties with the location', async () => {
      await expect(violationsOf(OrderDto, { title: 42 })).resolves.toEqual([
        expect.objectContaining({ path: 'body.title' }),
      ]);
      await expect(violationsOf(OrderDto, { title: 42 }, 'query')).resolves.toEqual([
        expect.objectContaining({ path: 'query.title' }),
      ]);
      await expect(violationsOf(OrderDto, { title: 42 }, 'params')).resolves.toEqual([
        expect.objectContaining({ path: 'params.title' }),
      ]);
    });

    it('joins nested object properties with dots', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', address: { city: 7 } })).resolves.toEqual([
        { path: 'body.address.city', rule: 'type', message: expect.any(String) },
      ]);
    });

    it('writes array elements as bracketed indexes', async () => {
      const violations = await violationsOf(OrderDto, {
        title: 'Order',
        items: [{ name: 'bolt' }, { name: 'much too long' }, { name: 3 }],
      });
      expect(violations).toEqual([
        { path: 'body.items[1].name', rule: 'max_length', message: expect.any(String) },
        { path: 'body.items[2].name', rule: 'type', message: expect.any(String) },
      ]);
    });

    it('reports every invalid property, one violation each', async () => {
      const violations = await violationsOf(OrderDto, { quantity: 0, address: { city: 1 } });
      expect(violations.map((violation) => violation.path)).toEqual([
        'body.title',
        'body.quantity',
        'body.address.city',
      ]);
    });
  });

  describe('unknown properties', () => {
    it('reports an unknown top-level property as unknown_property', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', extra: true })).resolves.toEqual([
        { path: 'body.extra', rule: 'unknown_property', message: 'This property is not allowed.' },
      ]);
    });

    it('reports an unknown property inside a nested array element', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', items: [{ name: 'bolt', colour: 'red' }] })).resolves.toEqual([
        { path: 'body.items[0].colour', rule: 'unknown_property', message: 'This property is not allowed.' },
      ]);
    });

    it('reports an unknown property even when its value is null', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', extra: null })).resolves.toEqual([
        { path: 'body.extra', rule: 'unknown_property', message: 'This property is not allowed.' },
      ]);
    });
  });

  describe('choosing the rule', () => {
    it('reports a missing property as required, whatever else it violates', async () => {
      await expect(violationsOf(OrderDto, {})).resolves.toEqual([
        { path: 'body.title', rule: 'required', message: 'This property is required.' },
      ]);
    });

    it('reports a null property as required', async () => {
      await expect(violationsOf(OrderDto, { title: null })).resolves.toEqual([
        { path: 'body.title', rule: 'required', message: 'This property is required.' },
      ]);
    });

    it('prefers a wrong type over a wrong length and keeps the type message', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', items: [{ name: 123456 }] })).resolves.toEqual([
        { path: 'body.items[0].name', rule: 'type', message: 'name must be a string' },
      ]);
    });

    it('reports an empty string on a not-empty property as blank', async () => {
      await expect(violationsOf(OrderDto, { title: '' })).resolves.toEqual([
        { path: 'body.title', rule: 'blank', message: expect.any(String) },
      ]);
    });

    it('reports a non-object where a nested object belongs as a type problem', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', address: 'Oslo' })).resolves.toEqual([
        expect.objectContaining({ path: 'body.address', rule: 'type' }),
      ]);
    });

    it('reports a non-array where an array belongs as a type problem', async () => {
      await expect(violationsOf(OrderDto, { title: 'Order', items: 'bolt' })).resolves.toEqual([
        expect.objectContaining({ path: 'body.items', rule: 'type' }),
      ]);
    });

    it.each([
      ['below the minimum', { quantity: 0 }, 'minimum'],
      ['above the maximum', { quantity: 11 }, 'maximum'],
      ['not an integer', { quantity: 1.5 }, 'type'],
      ['too many items', { items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] }, 'max_items'],
    ])('names the rule for a value %s', async (_case, plain, rule) => {
      await expect(violationsOf(OrderDto, { title: 'Order', ...plain })).resolves.toEqual([
        expect.objectContaining({ rule }),
      ]);
    });

    it.each([
      ['a malformed uuid', { id: 'not-a-uuid' }, 'format'],
      ['a pattern mismatch', { slug: 'Not Lower' }, 'pattern'],
      ['a value outside a list', { order: 'sideways' }, 'enum'],
      ['a value outside an enum', { color: 'green' }, 'enum'],
      ['a string that is too short', { short: 'ab' }, 'min_length'],
      ['an empty string under a length range', { label: '' }, 'min_length'],
      ['a string over a length range', { label: 'too long' }, 'max_length'],
      ['too few items', { atLeastOne: [] }, 'min_items'],
      ['repeated items', { distinct: ['a', 'a'] }, 'unique'],
      ['a constraint without its own rule', { hex: 'not-a-colour' }, 'format'],
      ['a custom constraint named after its rule', { accepted: false }, 'must_be_true'],
    ])('names the rule for %s', async (_case, plain, rule) => {
      await expect(ruleOf(plain)).resolves.toBe(rule);
    });

    it("keeps class-validator's message for the chosen constraint", async () => {
      await expect(violationsOf(RulesDto, { order: 'sideways' })).resolves.toEqual([
        { path: 'body.order', rule: 'enum', message: 'order must be one of the following values: asc, desc' },
      ]);
    });
  });
});

import type { ValidationError } from 'class-validator';
import { FieldViolation, VALIDATION_RULES, ValidationRule } from '../errors/error-codes';

/**
 * class-validator constraint name -> the rule name the error envelope reports. Custom constraints are named after
 * their rule.
 */
const RULE_BY_CONSTRAINT: Record<string, ValidationRule> = {
  whitelistValidation: 'unknown_property',
  isDefined: 'required',
  isNotEmpty: 'blank',
  isString: 'type',
  isInt: 'type',
  isNumber: 'type',
  isBoolean: 'type',
  isObject: 'type',
  isArray: 'type',
  nestedValidation: 'type',
  isUuid: 'format',
  isEmail: 'format',
  isIso8601: 'format',
  isDateString: 'format',
  isUrl: 'format',
  matches: 'pattern',
  isIn: 'enum',
  isEnum: 'enum',
  minLength: 'min_length',
  maxLength: 'max_length',
  min: 'minimum',
  max: 'maximum',
  arrayMinSize: 'min_items',
  arrayMaxSize: 'max_items',
  arrayUnique: 'unique',
};

const KNOWN_RULES = new Set<string>(VALIDATION_RULES);

export type ValidationLocation = 'body' | 'query' | 'params' | 'headers';

/** Flattens class-validator's tree into `{path, rule, message}` with location-prefixed paths (`body.a.b[2].c`). */
export function toFieldViolations(errors: ValidationError[], location: ValidationLocation): FieldViolation[] {
  const out: FieldViolation[] = [];
  const walk = (error: ValidationError, parent: string): void => {
    // forbidUnknownValues reports the value itself, without a property: the path is the location (`body`).
    const property = error.property as string | undefined;
    const path = !property ? parent : /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      // Report one violation per property: the most basic one (missing beats wrong type beats wrong length).
      out.push(pickViolation(path, error.value, constraints));
    }
    for (const child of error.children ?? []) walk(child, path);
  };
  for (const error of errors) walk(error, location);
  return out;
}

function pickViolation(path: string, value: unknown, constraints: [string, string][]): FieldViolation {
  const [[name, message]] = constraints;
  if (name === 'whitelistValidation') {
    return { path, rule: 'unknown_property', message: 'This property is not allowed.' };
  }
  if (name === 'unknownValue') {
    return { path, rule: 'type', message: 'Expected a JSON object.' };
  }
  if (name === 'min_properties') {
    // An object-level rule: its "value" is no property, so it must not read as a missing one.
    return { path, rule: 'min_properties', message };
  }
  if (value === undefined || value === null) {
    return { path, rule: 'required', message: 'This property is required.' };
  }
  const typeProblem = constraints.find(([constraint]) => RULE_BY_CONSTRAINT[constraint] === 'type');
  const [chosenName, chosenMessage] = typeProblem ?? [name, message];
  return { path, rule: ruleFor(chosenName, chosenMessage), message: chosenMessage };
}

function ruleFor(constraint: string, message: string): ValidationRule {
  if (constraint === 'isLength') {
    // @Length(min, max) reports both bounds under one name; its message says which one was broken.
    return /longer than/.test(message) ? 'min_length' : 'max_length';
  }
  const mapped = RULE_BY_CONSTRAINT[constraint];
  if (mapped) return mapped;
  // Custom constraints are named after their rule (e.g. `must_be_true`); any other name is not a rule.
  if (KNOWN_RULES.has(constraint)) return constraint as ValidationRule;
  return 'format';
}

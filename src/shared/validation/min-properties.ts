import { registerDecorator, ValidationArguments } from 'class-validator';

/**
 * The class-validator property the object-level rule hangs on. class-validator only validates properties, so
 * the rule is registered on the empty name: its violation is reported at the object's own path (`body`).
 */
const OBJECT_LEVEL_PROPERTY = '';

/**
 * A body must carry at least `min` properties (PATCH: "send at least one property to change"); else 400
 * `min_properties` at `body`. Unknown properties are refused before this rule by the whitelist.
 */
export function MinProperties(min: number, message = min === 1 ? 'Send at least one property to change.' : `Send at least ${min} properties.`): ClassDecorator {
  return (target) => {
    registerDecorator({
      name: 'min_properties',
      target,
      propertyName: OBJECT_LEVEL_PROPERTY,
      constraints: [min],
      options: { message },
      validator: {
        validate(_value: unknown, args: ValidationArguments): boolean {
          const object = args.object as Record<string, unknown>;
          // A body key spelled like the hook is reported by the rule below, not counted here.
          if (Object.hasOwn(object, OBJECT_LEVEL_PROPERTY)) return true;
          return Object.keys(object).filter((key) => object[key] !== undefined).length >= min;
        },
      },
    });
    // The hook makes the empty name a declared property; a body that sends it is still an unknown property.
    registerDecorator({
      name: 'unknown_property',
      target,
      propertyName: OBJECT_LEVEL_PROPERTY,
      options: { message: 'This property is not allowed.' },
      validator: { validate: (value: unknown) => value === undefined },
    });
  };
}

// The Users model as a JSON Schema (draft-07, what ajv and fast-json-stringify read by default),
// for thaw's typed Node children: java-json-benchmark's Users, field for field, in the
// document's order and with its JSON names (crates/codecs/src/models/users.rs; the JVM's and
// Go's models). Every property is required and no other is allowed, so ajv's validation refuses
// a document that is not a Users value, and fast-json-stringify writes exactly these fields.
// A JavaScript module, not a .json file: loading it runs no JSON parser.
'use strict';

const string = { type: 'string' };
const integer = { type: 'integer' };
const number = { type: 'number' };
const boolean = { type: 'boolean' };

const object = (properties) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const friend = object({ id: string, name: string });

const user = object({
  id: string,
  index: integer,
  guid: string,
  isActive: boolean,
  balance: string,
  picture: string,
  age: integer,
  eyeColor: string,
  name: string,
  gender: string,
  company: string,
  email: string,
  phone: string,
  address: string,
  about: string,
  registered: string,
  latitude: number,
  longitude: number,
  tags: { type: 'array', items: string },
  friends: { type: 'array', items: friend },
  greeting: string,
  favoriteFruit: string,
});

module.exports = object({ users: { type: 'array', items: user } });

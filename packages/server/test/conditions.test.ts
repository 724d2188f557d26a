// The audience condition language (product.md §3 "Decisions"), table-driven: each row is one
// `it`. Rows follow GrowthBook's evalCondition cases where our semantics agree and say so where
// they differ (see the header of src/decide/conditions.ts).
import { describe, expect, it } from "vitest";
import {
  conditionAttributes,
  attributesOf,
  compareVersions,
  evalCondition,
  MAX_CONDITION_DEPTH,
  validateCondition,
} from "../src/decide/conditions.js";
import type { Condition } from "../src/decide/conditions.js";

type Row = [name: string, condition: Condition, attributes: Record<string, unknown>, expected: boolean];

const table: Record<string, Row[]> = {
  "empty and logical operators": [
    ["{} matches everything", {}, { a: 1 }, true],
    ["{} matches no attributes", {}, {}, true],
    ["$and all true", { $and: [{ a: 1 }, { b: 2 }] }, { a: 1, b: 2 }, true],
    ["$and one false", { $and: [{ a: 1 }, { b: 3 }] }, { a: 1, b: 2 }, false],
    ["empty $and matches", { $and: [] }, { a: 1 }, true],
    ["$or first true", { $or: [{ a: 1 }, { b: 3 }] }, { a: 1, b: 2 }, true],
    ["$or second true", { $or: [{ a: 5 }, { b: 2 }] }, { a: 1, b: 2 }, true],
    ["$or none true", { $or: [{ a: 5 }, { b: 5 }] }, { a: 1, b: 2 }, false],
    ["empty $or matches (GrowthBook)", { $or: [] }, { a: 1 }, true],
    ["$nor none true", { $nor: [{ name: "john" }, { age: { $lt: 30 } }] }, { name: "jim", age: 40 }, true],
    ["$nor first true", { $nor: [{ name: "john" }, { age: { $lt: 30 } }] }, { name: "john", age: 40 }, false],
    ["$nor second true", { $nor: [{ name: "john" }, { age: { $lt: 30 } }] }, { name: "jim", age: 20 }, false],
    ["empty $nor does not match (not $or: [])", { $nor: [] }, { a: 1 }, false],
    ["top-level $not passes", { $not: { name: "hello" } }, { name: "world" }, true],
    ["top-level $not fails", { $not: { name: "hello" } }, { name: "hello" }, false],
    ["$not of {} never matches", { $not: {} }, { a: 1 }, false],
    [
      "$and with nested $or: all true",
      { $and: [{ "father.age": { $gt: 65 } }, { $or: [{ bday: { $regex: "-12-25$" } }, { name: "santa" }] }] },
      { name: "santa", bday: "1980-12-25", father: { age: 70 } },
      true,
    ],
    [
      "$and with nested $or: only second $or branch",
      { $and: [{ "father.age": { $gt: 65 } }, { $or: [{ bday: { $regex: "-12-25$" } }, { name: "santa" }] }] },
      { name: "barbara", bday: "1980-12-25", father: { age: 70 } },
      true,
    ],
    [
      "$and with nested $or: $and fails",
      { $and: [{ "father.age": { $gt: 65 } }, { $or: [{ bday: { $regex: "-12-25$" } }, { name: "santa" }] }] },
      { name: "santa", bday: "1980-12-25", father: { age: 65 } },
      false,
    ],
    [
      "$and with nested $or: both $or branches fail",
      { $and: [{ "father.age": { $gt: 65 } }, { $or: [{ bday: { $regex: "-12-25$" } }, { name: "santa" }] }] },
      { name: "barbara", bday: "1980-11-25", father: { age: 70 } },
      false,
    ],
    ["several keys are an implicit $and", { a: 1, b: { $gt: 1 } }, { a: 1, b: 2 }, true],
    ["several keys, one failing", { a: 1, b: { $gt: 5 } }, { a: 1, b: 2 }, false],
    ["$and not given an array never matches", { $and: { a: 1 } } as Condition, { a: 1 }, false],
    ["$or with a non-object element never matches", { $or: [1] } as Condition, { a: 1 }, false],
    ["$not given a non-object never matches", { $not: 1 } as Condition, { a: 1 }, false],
    ["unknown top-level operator never matches", { $foo: 1 }, { $foo: 1 }, false],
  ],

  "implicit equality": [
    ["string equal", { browser: "Chrome" }, { browser: "Chrome" }, true],
    ["string differs", { browser: "Chrome" }, { browser: "Safari" }, false],
    ["string is case-sensitive", { browser: "chrome" }, { browser: "Chrome" }, false],
    ["several data types at once", { str: "str", num: 10, flag: false }, { str: "str", num: 10, flag: false }, true],
    ["number equals numeric string", { width: 1920 }, { width: "1920" }, true],
    ["numeric string equals number", { width: "1920" }, { width: 1920 }, true],
    ["number equals numeric string with decimals", { n: 1 }, { n: "1.0" }, true],
    ["number does not equal non-numeric string", { n: 1 }, { n: "one" }, false],
    ["number does not equal empty string", { n: 0 }, { n: "" }, false],
    ["boolean true equal", { vip: true }, { vip: true }, true],
    ["boolean false equal", { vip: false }, { vip: false }, true],
    ["boolean equals the string 'true'", { vip: true }, { vip: "true" }, true],
    ["the string 'false' equals boolean false", { vip: "false" }, { vip: false }, true],
    ["boolean does not equal 1 (no truthiness)", { vip: true }, { vip: 1 }, false],
    ["boolean false does not match a missing attribute", { vip: false }, {}, false],
    ["missing attribute does not equal a string", { browser: "Chrome" }, {}, false],
    ["missing attribute does not equal the string 'undefined'", { browser: "undefined" }, {}, false],
    ["null condition matches null", { userId: null }, { userId: null }, true],
    ["null condition matches a missing attribute", { userId: null }, {}, true],
    ["null condition does not match a string", { userId: null }, { userId: "123" }, false],
    ["null condition does not match zero", { userId: null }, { userId: 0 }, false],
    ["null condition does not match empty string", { userId: null }, { userId: "" }, false],
    ["string condition does not match null", { userId: "null" }, { userId: null }, false],
  ],

  "arrays and objects": [
    ["plain value matches an array element", { tags: "vip" }, { tags: ["new", "vip"] }, true],
    ["plain value absent from the array", { tags: "vip" }, { tags: ["new"] }, false],
    ["plain value on an empty array", { tags: "vip" }, { tags: [] }, false],
    ["array equals array", { tags: ["hello", "world"] }, { tags: ["hello", "world"] }, true],
    ["array equality is ordered", { tags: ["hello", "world"] }, { tags: ["world", "hello"] }, false],
    ["array missing an item", { tags: ["hello", "world"] }, { tags: ["hello"] }, false],
    ["array with an extra item", { tags: ["hello", "world"] }, { tags: ["hello", "world", "foo"] }, false],
    ["array condition against a string", { tags: ["hello", "world"] }, { tags: "hello world" }, false],
    ["array condition matches an element of a nested array", { m: [1, 2] }, { m: [[0], [1, 2]] }, true],
    ["array equality does not coerce inside", { m: [1, 2] }, { m: ["1", "2"] }, false],
    ["object equals object", { o: { hello: "world" } }, { o: { hello: "world" } }, true],
    ["object equality ignores key order", { o: { a: 1, b: 2 } }, { o: { b: 2, a: 1 } }, true],
    ["object with an extra property", { o: { hello: "world" } }, { o: { hello: "world", yes: "please" } }, false],
    ["object missing a property", { o: { hello: "world" } }, { o: {} }, false],
    ["object condition against a string", { o: { hello: "world" } }, { o: "hello world" }, false],
    ["empty object is a literal, not an operator", { o: {} }, { o: {} }, true],
    ["empty object literal does not match a non-empty one", { o: {} }, { o: { a: 1 } }, false],
    ["nested object literal", { o: { a: { b: [1, { c: 2 }] } } }, { o: { a: { b: [1, { c: 2 }] } } }, true],
    ["object whose keys mix operators and fields is a literal", { o: { $gt: 1, a: 2 } }, { o: { $gt: 1, a: 2 } }, true],
    ["array of objects matches an element object", { items: { sku: "A" } }, { items: [{ sku: "B" }, { sku: "A" }] }, true],
  ],

  "dotted paths": [
    ["into nested objects", { "properties.plan": "pro" }, { properties: { plan: "pro" } }, true],
    ["deep path", { "a.b.c.d": 1 }, { a: { b: { c: { d: 1 } } } }, true],
    ["missing intermediate object", { "pets.dog.name": "fido" }, { pets: {} }, false],
    ["through null", { "address.state": "CA" }, { address: null }, false],
    ["through a number", { "address.state": "CA" }, { address: 123 }, false],
    ["through a string", { "name.length": 4 }, { name: "john" }, false],
    ["does not read the prototype", { "o.constructor": { $exists: true } }, { o: {} }, false],
    ["through an array of objects: any element", { "orders.sku": "B" }, { orders: [{ sku: "A" }, { sku: "B" }] }, true],
    ["through an array of objects: none", { "orders.sku": "C" }, { orders: [{ sku: "A" }, { sku: "B" }] }, false],
    ["through an array with a comparison", { "orders.total": { $gt: 100 } }, { orders: [{ total: 20 }, { total: 150 }] }, true],
    ["through an array: $exists true when one has it", { "orders.coupon": { $exists: true } }, { orders: [{}, { coupon: "X" }] }, true],
    ["through an array: $exists false when none has it", { "orders.coupon": { $exists: false } }, { orders: [{}, {}] }, true],
    ["through an array: $ne means no element equals", { "orders.sku": { $ne: "A" } }, { orders: [{ sku: "A" }, { sku: "B" }] }, false],
    ["numeric part indexes an array", { "orders.0.sku": "A" }, { orders: [{ sku: "A" }, { sku: "B" }] }, true],
    ["numeric part indexes only that element", { "orders.0.sku": "B" }, { orders: [{ sku: "A" }, { sku: "B" }] }, false],
    ["index out of range is missing", { "orders.5.sku": { $exists: false } }, { orders: [{ sku: "A" }] }, true],
    ["index into a primitive array", { "tags.1": "b" }, { tags: ["a", "b"] }, true],
    ["through arrays reaching nested arrays", { "orders.tags": "gift" }, { orders: [{ tags: ["a"] }, { tags: ["gift"] }] }, true],
    ["through nested arrays", { "groups.name": "x" }, { groups: [[{ name: "y" }], [{ name: "x" }]] }, true],
    ["session_fields.tags reaches an array", { "session_fields.tags": "cart" }, { session_fields: { tags: ["cart"] } }, true],
  ],

  "$eq and $ne": [
    ["$eq passes", { occupation: { $eq: "engineer" } }, { occupation: "engineer" }, true],
    ["$eq fails", { occupation: { $eq: "engineer" } }, { occupation: "civil engineer" }, false],
    ["$eq matches an array element", { tags: { $eq: "a" } }, { tags: ["a", "b"] }, true],
    ["$eq with an array compares the array", { tags: { $eq: ["a", "b"] } }, { tags: ["a", "b"] }, true],
    ["$eq null matches missing", { x: { $eq: null } }, {}, true],
    ["$eq coerces numeric strings like plain equality", { n: { $eq: 5 } }, { n: "5" }, true],
    ["$ne passes", { level: { $ne: "senior" } }, { level: "junior" }, true],
    ["$ne fails", { level: { $ne: "senior" } }, { level: "senior" }, false],
    ["$ne on a missing attribute is true", { x: { $ne: 1 } }, {}, true],
    ["$ne null on a missing attribute is false", { x: { $ne: null } }, {}, false],
    ["$ne null on null is false", { x: { $ne: null } }, { x: null }, false],
    ["$ne null on a value is true", { x: { $ne: null } }, { x: 0 }, true],
    ["$ne fails when any array element equals", { tags: { $ne: "a" } }, { tags: ["a", "b"] }, false],
    ["$ne passes when no array element equals", { tags: { $ne: "c" } }, { tags: ["a", "b"] }, true],
  ],

  "$in and $nin": [
    ["$in passes", { num: { $in: [1, 2, 3] } }, { num: 2 }, true],
    ["$in fails", { num: { $in: [1, 2, 3] } }, { num: 4 }, false],
    ["$in not given an array never matches", { num: { $in: 1 } }, { num: 1 }, false],
    ["$in intersects an array attribute", { tags: { $in: ["a", "b"] } }, { tags: ["d", "e", "a"] }, true],
    ["$in intersects an array attribute (other element)", { tags: { $in: ["a", "b"] } }, { tags: ["d", "b", "f"] }, true],
    ["$in with no common element", { tags: { $in: ["a", "b"] } }, { tags: ["d", "e", "f"] }, false],
    ["$in on an empty array", { tags: { $in: ["a", "b"] } }, { tags: [] }, false],
    ["$in on a missing attribute", { "pets.dog.name": { $in: ["fido"] } }, { hello: "world" }, false],
    ["$in with null matches missing", { x: { $in: [null, "a"] } }, {}, true],
    ["$in with an empty list", { x: { $in: [] } }, { x: 1 }, false],
    ["$in coerces numeric strings", { x: { $in: [1, 2] } }, { x: "2" }, true],
    ["$nin passes", { num: { $nin: [1, 2, 3] } }, { num: 4 }, true],
    ["$nin fails", { num: { $nin: [1, 2, 3] } }, { num: 2 }, false],
    ["$nin not given an array never matches", { num: { $nin: 1 } }, { num: 1 }, false],
    ["$nin fails on an intersecting array", { tags: { $nin: ["a", "b"] } }, { tags: ["d", "e", "a"] }, false],
    ["$nin passes on a disjoint array", { tags: { $nin: ["a", "b"] } }, { tags: ["d", "e", "f"] }, true],
    ["$nin passes on an empty array", { tags: { $nin: ["a", "b"] } }, { tags: [] }, true],
    ["$nin passes on a missing attribute", { x: { $nin: ["a"] } }, {}, true],
    ["$nin with an empty list", { x: { $nin: [] } }, { x: 1 }, true],
  ],

  "comparisons": [
    ["$gt/$lt numbers pass", { age: { $gt: 30, $lt: 60 } }, { age: 50 }, true],
    ["$lt is strict", { age: { $gt: 30, $lt: 60 } }, { age: 60 }, false],
    ["$gt is strict", { age: { $gt: 30, $lt: 60 } }, { age: 30 }, false],
    ["$gte/$lte pass inside", { age: { $gte: 30, $lte: 60 } }, { age: 50 }, true],
    ["$gte includes the bound", { age: { $gte: 30, $lte: 60 } }, { age: 30 }, true],
    ["$lte includes the bound", { age: { $gte: 30, $lte: 60 } }, { age: 60 }, true],
    ["$lte fails above", { age: { $gte: 30, $lte: 60 } }, { age: 61 }, false],
    ["$gte fails below", { age: { $gte: 30, $lte: 60 } }, { age: 29 }, false],
    ["negative and fractional numbers", { tz: { $gt: -90.5, $lt: 0 } }, { tz: -60 }, true],
    ["$gt/$lt strings pass", { word: { $gt: "alphabet", $lt: "zebra" } }, { word: "always" }, true],
    ["$gt strings is strict", { word: { $gt: "alphabet", $lt: "zebra" } }, { word: "alphabet" }, false],
    ["$lt strings is strict", { word: { $gt: "alphabet", $lt: "zebra" } }, { word: "zebra" }, false],
    ["strings compare by code unit (uppercase first)", { word: { $gt: "alphabet", $lt: "zebra" } }, { word: "AZL" }, false],
    ["ISO dates compare as strings", { since: { $gte: "2024-01-01" } }, { since: "2024-06-30T10:00:00Z" }, true],
    ["number attribute against numeric string bounds", { n: { $gt: "5", $lt: "10" } }, { n: 8 }, true],
    ["numeric string attribute against number bounds", { n: { $gt: 5, $lt: 10 } }, { n: "8" }, true],
    ["two numeric strings compare as strings", { n: { $lt: "9" } }, { n: "10" }, true],
    ["non-numeric string against a number is false", { n: { $gt: 5 } }, { n: "abc" }, false],
    ["non-numeric string against a number is false for $lt too", { n: { $lt: 5 } }, { n: "abc" }, false],
    ["empty string against a number is false", { n: { $gt: -1 } }, { n: "" }, false],
    ["boolean against a number is false", { n: { $gte: 0 } }, { n: true }, false],
    ["null against a number is false", { n: { $gt: -10 } }, { n: null }, false],
    ["$gt on a missing attribute is false", { age: { $gt: -10 } }, {}, false],
    ["$lte on a missing attribute is false", { age: { $lte: 10 } }, {}, false],
    [
      "missing attribute with every bound (GrowthBook true, ours false)",
      { age: { $gt: -10, $lt: 10, $gte: -9, $lte: 9, $ne: 10 } },
      {},
      false,
    ],
    ["object against a number is false", { n: { $gt: 0 } }, { n: { a: 1 } }, false],
    ["$gt matches if any array element does", { scores: { $gt: 10 } }, { scores: [1, 20] }, true],
    ["$gt fails if no array element does", { scores: { $gt: 10 } }, { scores: [1, 2] }, false],
    ["bounds on an array may be met by different elements (MongoDB)", { s: { $gt: 5, $lt: 3 } }, { s: [1, 10] }, true],
  ],

  "$regex": [
    ["$regex passes", { userAgent: { $regex: "(Mobile|Tablet)" } }, { userAgent: "Android Mobile Browser" }, true],
    ["$regex fails", { userAgent: { $regex: "(Mobile|Tablet)" } }, { userAgent: "Chrome Desktop Browser" }, false],
    ["$regex anchored end", { bday: { $regex: "-12-25$" } }, { bday: "1980-12-25" }, true],
    ["$regex is case-sensitive by default", { b: { $regex: "^chrome" } }, { b: "Chrome" }, false],
    ["$regex with $options i", { b: { $regex: "^chrome", $options: "i" } }, { b: "Chrome" }, true],
    ["$regex with $options m", { t: { $regex: "^two", $options: "m" } }, { t: "one\ntwo" }, true],
    ["$regex with $options s", { t: { $regex: "one.two", $options: "s" } }, { t: "one\ntwo" }, true],
    ["$regex with a slash in the pattern", { url: { $regex: "/products/" } }, { url: "https://x.test/products/a" }, true],
    ["$regex invalid pattern is false", { name: { $regex: "/???***[)" } }, { name: "hello" }, false],
    ["$regex invalid pattern on a missing attribute is false", { name: { $regex: "/???***[)" } }, { hello: "hello" }, false],
    ["$regex with an unsupported flag is false", { b: { $regex: "a", $options: "g" } }, { b: "a" }, false],
    ["$regex with repeated flags is false", { b: { $regex: "a", $options: "ii" } }, { b: "a" }, false],
    ["$regex not given a string is false", { b: { $regex: 1 } } as Condition, { b: "1" }, false],
    ["$regex on a missing attribute is false", { b: { $regex: "^u" } }, {}, false],
    ["$regex on null is false", { b: { $regex: "null" } }, { b: null }, false],
    ["$regex tests numbers as text", { zip: { $regex: "^90" } }, { zip: 90210 }, true],
    ["$regex on a boolean is false", { b: { $regex: "true" } }, { b: true }, false],
    ["$regex matches any array element", { tags: { $regex: "^sale-" } }, { tags: ["new", "sale-2024"] }, true],
    ["$regex on an object is false", { o: { $regex: "a" } }, { o: { a: "a" } }, false],
    ["$regex is not stateful between calls", { b: { $regex: "a" } }, { b: "a" }, true],
  ],

  "$not": [
    ["$not with $regex passes", { name: { $not: { $regex: "^hello" } } }, { name: "world" }, true],
    ["$not with $regex fails", { name: { $not: { $regex: "^hello" } } }, { name: "hello world" }, false],
    ["$not with $regex on a missing attribute is true", { name: { $not: { $regex: "^hello" } } }, {}, true],
    ["$not with an invalid $regex is true", { name: { $not: { $regex: "[" } } }, { name: "x" }, true],
    ["$not with a plain value", { name: { $not: "bob" } }, { name: "alice" }, true],
    ["$not with a plain value that equals", { name: { $not: "bob" } }, { name: "bob" }, false],
    ["$not of $gt on a missing attribute is true", { n: { $not: { $gt: 5 } } }, {}, true],
    ["$not of $in", { c: { $not: { $in: ["US", "CA"] } } }, { c: "GB" }, true],
    ["double $not", { n: { $not: { $not: { $gt: 5 } } } }, { n: 6 }, true],
  ],

  "$exists and $type": [
    ["$exists false on a missing path", { "pets.dog.name": { $exists: false } }, { hello: "world" }, true],
    ["$exists false on a present path", { "pets.dog.name": { $exists: false } }, { pets: { dog: { name: "fido" } } }, false],
    ["$exists true on a missing path", { "pets.dog.name": { $exists: true } }, { hello: "world" }, false],
    ["$exists true on a present path", { "pets.dog.name": { $exists: true } }, { pets: { dog: { name: "fido" } } }, true],
    ["$exists true on null is false (GrowthBook)", { x: { $exists: true } }, { x: null }, false],
    ["$exists false on null is true (GrowthBook)", { x: { $exists: false } }, { x: null }, true],
    ["$exists true on false", { x: { $exists: true } }, { x: false }, true],
    ["$exists true on zero", { x: { $exists: true } }, { x: 0 }, true],
    ["$exists true on an empty string", { x: { $exists: true } }, { x: "" }, true],
    ["$exists true on an empty array", { x: { $exists: true } }, { x: [] }, true],
    ["$type string passes", { a: { $type: "string" } }, { a: "a" }, true],
    ["$type string fails", { a: { $type: "string" } }, { a: 1 }, false],
    ["$type number passes", { a: { $type: "number" } }, { a: 1 }, true],
    ["$type number fails on a numeric string", { a: { $type: "number" } }, { a: "1" }, false],
    ["$type boolean passes", { a: { $type: "boolean" } }, { a: false }, true],
    ["$type boolean fails", { a: { $type: "boolean" } }, { a: 1 }, false],
    ["$type object passes", { a: { $type: "object" } }, { a: { a: "b" } }, true],
    ["$type object fails on an array", { a: { $type: "object" } }, { a: [1] }, false],
    ["$type array passes", { a: { $type: "array" } }, { a: [1, 2] }, true],
    ["$type array fails", { a: { $type: "array" } }, { a: 1 }, false],
    ["$type null passes", { a: { $type: "null" } }, { a: null }, true],
    ["$type null fails on missing", { a: { $type: "null" } }, {}, false],
    ["$type undefined passes on missing", { a: { $type: "undefined" } }, {}, true],
    ["$type undefined fails on null", { a: { $type: "undefined" } }, { a: null }, false],
  ],

  "$size": [
    ["$size 0 on an empty array", { tags: { $size: 0 } }, { tags: [] }, true],
    ["$size 0 on a non-empty array", { tags: { $size: 0 } }, { tags: [10] }, false],
    ["$size exact", { tags: { $size: 3 } }, { tags: ["a", "b", "c"] }, true],
    ["$size too small", { tags: { $size: 3 } }, { tags: ["a", "b"] }, false],
    ["$size too large", { tags: { $size: 3 } }, { tags: ["a", "b", "c", "d"] }, false],
    ["$size on a string is false", { tags: { $size: 3 } }, { tags: "abc" }, false],
    ["$size on an object is false", { tags: { $size: 1 } }, { tags: { a: 1 } }, false],
    ["$size on a missing attribute is false", { tags: { $size: 0 } }, {}, false],
    ["$size with a condition passes", { tags: { $size: { $gt: 2 } } }, { tags: [0, 1, 2] }, true],
    ["$size with a condition fails on equal", { tags: { $size: { $gt: 2 } } }, { tags: [0, 1] }, false],
    ["$size with a range", { tags: { $size: { $gte: 1, $lte: 2 } } }, { tags: ["a"] }, true],
  ],

  "$elemMatch": [
    ["$elemMatch on flat numbers passes", { nums: { $elemMatch: { $gt: 10 } } }, { nums: [0, 5, -20, 15] }, true],
    ["$elemMatch on flat numbers fails", { nums: { $elemMatch: { $gt: 10 } } }, { nums: [0, 5, -20, 8] }, false],
    ["$elemMatch $eq contains", { tags: { $elemMatch: { $eq: "bar" } } }, { tags: ["foo", "bar", "baz"] }, true],
    ["$elemMatch $eq does not contain", { tags: { $elemMatch: { $eq: "bar" } } }, { tags: ["foo", "baz"] }, false],
    ["$elemMatch $in intersects", { tags: { $elemMatch: { $in: ["a", "b"] } } }, { tags: ["d", "e", "b"] }, true],
    ["$elemMatch $in disjoint", { tags: { $elemMatch: { $in: ["a", "b"] } } }, { tags: ["d", "e", "f"] }, false],
    ["$elemMatch matches a falsy element", { nums: { $elemMatch: { $eq: 0 } } }, { nums: [0] }, true],
    ["$elemMatch bounds must hold on one element", { s: { $elemMatch: { $gt: 5, $lt: 3 } } }, { s: [1, 10] }, false],
    ["$elemMatch bounds on one element", { s: { $elemMatch: { $gt: 5, $lt: 15 } } }, { s: [1, 10] }, true],
    [
      "$elemMatch on objects passes",
      { hobbies: { $elemMatch: { name: { $regex: "^ping" } } } },
      { hobbies: [{ name: "bowling" }, { name: "pingpong" }, { name: "tennis" }] },
      true,
    ],
    [
      "$elemMatch on objects fails",
      { hobbies: { $elemMatch: { name: { $regex: "^ping" } } } },
      { hobbies: [{ name: "bowling" }, { name: "tennis" }] },
      false,
    ],
    [
      "$elemMatch needs both fields on the same object",
      { items: { $elemMatch: { sku: "A", qty: { $gte: 2 } } } },
      { items: [{ sku: "A", qty: 1 }, { sku: "B", qty: 5 }] },
      false,
    ],
    [
      "$elemMatch with both fields on one object",
      { items: { $elemMatch: { sku: "A", qty: { $gte: 2 } } } },
      { items: [{ sku: "B", qty: 1 }, { sku: "A", qty: 3 }] },
      true,
    ],
    ["$elemMatch on a string is false", { hobbies: { $elemMatch: { name: { $regex: "^ping" } } } }, { hobbies: "all" }, false],
    ["$elemMatch on a missing attribute is false", { tags: { $elemMatch: { $eq: "a" } } }, {}, false],
    ["$elemMatch of {} on a non-empty array", { tags: { $elemMatch: {} } }, { tags: [{ a: 1 }] }, true],
    ["$elemMatch of {} on an empty array", { tags: { $elemMatch: {} } }, { tags: [] }, false],
    ["$not $elemMatch passes when absent", { tags: { $not: { $elemMatch: { $eq: "bar" } } } }, { tags: ["foo", "baz"] }, true],
    ["$not $elemMatch fails when present", { tags: { $not: { $elemMatch: { $eq: "bar" } } } }, { tags: ["foo", "bar"] }, false],
    [
      "$elemMatch inside $and over one array (group membership)",
      {
        $and: [
          { groups: { $elemMatch: { $eq: "a" } } },
          { $or: [{ groups: { $elemMatch: { $eq: "c" } } }, { groups: { $elemMatch: { $eq: "e" } } }] },
          { $not: { groups: { $elemMatch: { $eq: "f" } } } },
        ],
      },
      { groups: ["a", "b", "c", "d"] },
      true,
    ],
  ],

  "$all": [
    ["$all passes", { tags: { $all: ["one", "three"] } }, { tags: ["one", "two", "three"] }, true],
    ["$all fails", { tags: { $all: ["one", "three"] } }, { tags: ["one", "two", "four"] }, false],
    ["$all on a string is false", { tags: { $all: ["one", "three"] } }, { tags: "hello" }, false],
    ["$all on a missing attribute is false", { tags: { $all: ["one"] } }, {}, false],
    ["$all with an empty list matches any array (GrowthBook)", { tags: { $all: [] } }, { tags: ["a"] }, true],
    ["$all with an empty list on a non-array is false", { tags: { $all: [] } }, { tags: "a" }, false],
    ["$all not given an array is false", { tags: { $all: "one" } }, { tags: ["one"] }, false],
    ["$all with numbers coerces numeric strings", { ids: { $all: [1, 2] } }, { ids: ["2", "1"] }, true],
    ["$all with duplicates in the list", { tags: { $all: ["a", "a"] } }, { tags: ["a"] }, true],
    ["$all with conditions", { n: { $all: [{ $gt: 10 }, { $lt: 0 }] } }, { n: [-1, 5, 20] }, true],
  ],

  "version comparisons": [
    ["$vgt/$vlt major", { version: { $vgt: "9.99.8", $vlt: "11.0.1" } }, { version: "10.12.13" }, true],
    ["$vgt/$vlt minor", { version: { $vgt: "10.2.11", $vlt: "10.20.11" } }, { version: "10.12.11" }, true],
    ["$vgt/$vlt patch", { version: { $vgt: "10.0.2", $vlt: "10.0.20" } }, { version: "10.0.12" }, true],
    ["1.2.10 is above 1.2.9", { v: { $vgt: "1.2.9" } }, { v: "1.2.10" }, true],
    ["$vlt fails above", { version: { $vgt: "30.0.0", $vlt: "50.0.0" } }, { version: "60.0.0" }, false],
    ["$vgt fails below", { version: { $vgt: "10.30.10", $vlt: "10.30.20" } }, { version: "10.30.2" }, false],
    ["$vgte includes the bound", { version: { $vgte: "30.1.2", $vlte: "60.1.2" } }, { version: "30.1.2" }, true],
    ["$vlte includes the bound", { version: { $vgte: "1.2.30", $vlte: "1.2.60" } }, { version: "1.2.60" }, true],
    ["$vlte fails above", { version: { $vgte: "30.1.2", $vlte: "60.1.2" } }, { version: "61.1.2" }, false],
    ["$vgte fails below", { version: { $vgte: "1.2.30", $vlte: "1.2.60" } }, { version: "1.2.29" }, false],
    ["pre-release equal to the lower bound fails $vgt", { v: { $vgt: "1.0.0-alpha", $vlt: "1.0.0-beta" } }, { v: "1.0.0-alpha" }, false],
    ["pre-release with more fields", { v: { $vgt: "1.0.0-alpha.2", $vlt: "1.0.0-beta.1" } }, { v: "1.0.0-alpha.1" }, false],
    ["pre-release equal to the upper bound fails $vlt", { v: { $vgt: "1.0.0-alpha", $vlt: "1.0.0-beta" } }, { v: "1.0.0-beta" }, false],
    ["pre-release between bounds", { v: { $vgt: "1.0.0-alpha", $vlt: "1.0.0-beta" } }, { v: "1.0.0-alpha.10" }, true],
    ["pre-release identifiers are case-sensitive", { v: { $vgt: "1.0.0-alpha", $vlt: "1.0.0-beta" } }, { v: "1.0.0-ALPHA" }, false],
    ["pre-release is below its release", { v: { $vlt: "2.0.0" } }, { v: "2.0.0-rc.1" }, true],
    ["release is above its pre-release", { v: { $vgt: "2.0.0-rc.9" } }, { v: "2.0.0" }, true],
    ["$veq", { v: { $veq: "1.2.3" } }, { v: "1.2.3" }, true],
    ["$veq ignores build metadata", { v: { $veq: "1.2.3" } }, { v: "1.2.3+build.abc.123" }, true],
    ["$veq ignores a v prefix", { v: { $veq: "1.2.3" } }, { v: "v1.2.3" }, true],
    ["$veq pads missing parts", { v: { $veq: "1.2" } }, { v: "1.2.0" }, true],
    ["$veq pads a single part", { v: { $veq: "3" } }, { v: "3.0.0" }, true],
    ["shorter version below a longer one", { v: { $vlt: "1.2.1" } }, { v: "1.2" }, true],
    ["four-part versions", { v: { $vgt: "1.2.3.4" } }, { v: "1.2.3.10" }, true],
    ["numeric attribute read as a version", { v: { $vgte: "2.1" } }, { v: 2.5 }, true],
    ["$vne on a different version", { v: { $vne: "1.2.3" } }, { v: "2.2.3" }, true],
    ["$vne on its pre-release", { v: { $vne: "1.2.3" } }, { v: "1.2.3-alpha" }, true],
    ["$vne on an equal padded version", { v: { $vne: "1.2.3" } }, { v: "1.2.3.0" }, false],
    ["$vgt on a missing attribute is false", { v: { $vgt: "0.0.1" } }, {}, false],
    ["$vlt on a missing attribute is false (GrowthBook reads it as 0)", { v: { $vlt: "1.0.0" } }, {}, false],
    ["$vne on a missing attribute is true", { v: { $vne: "1.0.0" } }, {}, true],
    ["$vgt on an unparsable version is false", { v: { $vgt: "1.0.0" } }, { v: "latest" }, false],
    ["$vgte with an unparsable bound is false", { v: { $vgte: "new" } }, { v: "1.0.0" }, false],
    ["$vgt matches any array element", { v: { $vgt: "2.0.0" } }, { v: ["1.0.0", "3.1.0"] }, true],
  ],

  "unknown operators and odd input": [
    ["unknown value operator never matches", { name: { $regx: "hello" } }, { name: "hello" }, false],
    ["unknown operator beside a passing one", { n: { $gt: 1, $foo: 1 } }, { n: 5 }, false],
    ["$options alone is a no-op", { n: { $options: "i" } }, { n: "x" }, true],
    ["a condition that is an array never matches", [] as unknown as Condition, { a: 1 }, false],
    ["a condition that is null never matches", null as unknown as Condition, { a: 1 }, false],
    ["attributes with a __proto__ key", { a: 1 }, JSON.parse('{"__proto__": {"a": 1}}') as Record<string, unknown>, false],
    ["an attribute named constructor is an own property only", { constructor: { $exists: true } }, {}, false],
  ],
};

describe("evalCondition", () => {
  for (const [group, rows] of Object.entries(table)) {
    describe(group, () => {
      for (const [name, condition, attributes, expected] of rows) {
        it(name, () => {
          expect(evalCondition(attributes, condition)).toBe(expected);
        });
      }
    });
  }

  it("never throws on a condition nested far beyond the limit", () => {
    let condition: Condition = { a: 1 };
    for (let i = 0; i < 20_000; i++) condition = { $not: condition };
    expect(() => evalCondition({ a: 1 }, condition)).not.toThrow();
  });

  it("never throws on cyclic attributes", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(evalCondition({ a }, { a: { self: {} } })).toBe(false);
  });
});

describe("compareVersions", () => {
  // [lower, higher]: semver precedence, as GrowthBook's versionCompare vectors.
  const ordered: [string, string][] = [
    ["0.9.99", "1.0.0"],
    ["0.9.0", "0.10.0"],
    ["1.0.0-0.0", "1.0.0-0.0.0"],
    ["1.0.0-9999", "1.0.0--"],
    ["1.0.0-99", "1.0.0-100"],
    ["1.0.0-alpha", "1.0.0-alpha.1"],
    ["1.0.0-alpha.1", "1.0.0-alpha.beta"],
    ["1.0.0-alpha.beta", "1.0.0-beta"],
    ["1.0.0-beta", "1.0.0-beta.2"],
    ["1.0.0-beta.2", "1.0.0-beta.11"],
    ["1.0.0-beta.11", "1.0.0-rc.1"],
    ["1.0.0-rc.1", "1.0.0"],
    ["1.0.0-0", "1.0.0--1"],
    ["1.0.0-1.0", "1.0.0-1.-1"],
    ["0.0.0-foo", "v0.0.0"],
    ["1.2.9", "1.2.10"],
    ["1.2", "1.2.1"],
  ];
  for (const [low, high] of ordered) {
    it(`${low} < ${high}`, () => {
      expect(compareVersions(low, high)).toBe(-1);
      expect(compareVersions(high, low)).toBe(1);
    });
  }
  const same: [string, string][] = [
    ["1.2.3", "v1.2.3"],
    ["1.2.3", "1.2.3+build.5"],
    ["1.2", "1.2.0.0"],
    [" 1.2.3 ", "1.2.3"],
  ];
  for (const [a, b] of same) {
    it(`"${a}" equals "${b}"`, () => expect(compareVersions(a, b)).toBe(0));
  }
  for (const bad of ["", "abc", "1..2", "1.2.x", "-1.0.0", null, undefined, true, {}]) {
    it(`${JSON.stringify(bad) ?? "undefined"} is not a version`, () => expect(compareVersions(bad, "1.0.0")).toBeNull());
  }
});

type ValidationRow = [name: string, condition: unknown, path: string | null, message?: RegExp];

const validation: ValidationRow[] = [
  ["empty condition", {}, null],
  ["a full audience", {
    $and: [
      { cf_device_type: { $in: ["mobile", "tablet"] } },
      { $or: [{ "properties.plan": "pro" }, { tags: { $all: ["vip"] } }] },
      { $nor: [{ path: { $regex: "^/checkout", $options: "i" } }] },
      { $not: { is_first_time_visitor: true } },
      { cf_browser_version: { $vgte: "v110.0" } },
      { "session.tags": { $size: { $gt: 0 }, $elemMatch: { $eq: "cart" } } },
      { "private.orders": { $elemMatch: { total: { $gte: 50 } } } },
      { cf_screen_width: { $gt: 0, $lte: 4000, $type: "number" } },
      { email: { $exists: true, $ne: null, $not: { $regex: "@example\\.com$" } } },
      { o: { a: { b: 1 } } },
    ],
  }, null],
  ["empty $or and $and", { $or: [], $and: [] }, null],
  ["$size with a whole number", { t: { $size: 2 } }, null],
  ["$elemMatch with {}", { t: { $elemMatch: {} } }, null],
  ["nesting exactly at the limit", nest(MAX_CONDITION_DEPTH), null],
  ["a string", "browser = chrome", "", /must be an object/],
  ["null", null, "", /must be an object/],
  ["an array", [{ a: 1 }], "", /must be an object/],
  ["unknown top-level operator", { $foo: 1 }, "$foo", /unknown operator \$foo/],
  ["unknown value operator", { browser: { $foo: "x" } }, "browser.$foo", /unknown operator \$foo/],
  ["misspelt $regex", { name: { $regx: "a" } }, "name.$regx", /unknown operator/],
  ["$or not given an array", { $or: { a: 1 } }, "$or", /array of conditions/],
  ["$and not given an array", { $and: "a" }, "$and", /array of conditions/],
  ["$nor with a non-object element", { $nor: [{ a: 1 }, 2] }, "$nor[1]", /must be an object/],
  ["$or with an array element", { $or: [[]] }, "$or[0]", /must be an object/],
  ["$not not given an object", { $not: [1] }, "$not", /must be an object/],
  ["invalid regex inside $or", { $or: [{ a: 1 }, { browser: { $regex: "(" } }] }, "$or[1].browser.$regex", /invalid regular expression/],
  ["catastrophic regex (nested repetition)", { url: { $regex: "^(a+)+$" } }, "url.$regex", /exponential time/],
  ["catastrophic regex inside $and", { $and: [{ path: { $regex: "(x+x+)+y" } }] }, "$and[0].path.$regex", /exponential time/],
  ["$regex not a string", { b: { $regex: 5 } }, "b.$regex", /takes a string/],
  ["$options with an unknown flag", { b: { $regex: "a", $options: "gx" } }, "b.$options", /flags/],
  ["$options with a repeated flag", { b: { $regex: "a", $options: "ii" } }, "b.$options", /flags/],
  ["$options without $regex", { b: { $options: "i" } }, "b.$options", /needs a \$regex/],
  ["$in not given an array", { c: { $in: "US" } }, "c.$in", /takes an array/],
  ["$nin not given an array", { c: { $nin: 1 } }, "c.$nin", /takes an array/],
  ["$all not given an array", { c: { $all: { a: 1 } } }, "c.$all", /takes an array/],
  ["$all with an invalid item", { c: { $all: ["a", { $foo: 1 }] } }, "c.$all[1].$foo", /unknown operator/],
  ["$size not a number or condition", { t: { $size: "3" } }, "t.$size", /number or a condition/],
  ["$size negative", { t: { $size: -1 } }, "t.$size", /whole number/],
  ["$size fractional", { t: { $size: 1.5 } }, "t.$size", /whole number/],
  ["$size with an invalid condition", { t: { $size: { $gt: [] } } }, "t.$size.$gt", /number or a string/],
  ["$exists not boolean", { t: { $exists: 1 } }, "t.$exists", /true or false/],
  ["$exists as a string", { t: { $exists: "true" } }, "t.$exists", /true or false/],
  ["$type unknown", { t: { $type: "date" } }, "t.$type", /\$type takes one of/],
  ["$gt given an object", { n: { $gt: { a: 1 } } }, "n.$gt", /number or a string/],
  ["$lte given null", { n: { $lte: null } }, "n.$lte", /number or a string/],
  ["$vgt given a non-version", { v: { $vgt: "latest" } }, "v.$vgt", /version/],
  ["$veq given a boolean", { v: { $veq: true } }, "v.$veq", /version/],
  ["$elemMatch given an array", { t: { $elemMatch: ["a"] } }, "t.$elemMatch", /condition object/],
  ["$elemMatch with an invalid field condition", { t: { $elemMatch: { name: { $regex: "[" } } } }, "t.$elemMatch.name.$regex", /invalid regular/],
  ["$not with an invalid value condition", { t: { $not: { $in: 1 } } }, "t.$not.$in", /takes an array/],
  ["operators mixed with fields", { t: { $gt: 1, other: 2 } }, "t", /cannot be mixed/],
  ["empty attribute name", { "": 1 }, "", /invalid attribute name/],
  ["attribute name with an empty part", { "a..b": 1 }, "a..b", /invalid attribute name/],
  ["a non-finite number", { n: Number.NaN }, "n", /finite/],
  ["nesting one past the limit", nest(MAX_CONDITION_DEPTH + 1), Array(MAX_CONDITION_DEPTH).fill("$not").join("."), /deeper than 20/],
  ["a deep literal", { a: deepArray(25) }, "a", /deeper than 20/],
];

/** A condition of `levels` nested objects: { $not: { $not: … { a: 1 } } }. */
function nest(levels: number): Condition {
  let c: Condition = { a: 1 };
  for (let i = 1; i < levels; i++) c = { $not: c };
  return c;
}

function deepArray(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe("validateCondition", () => {
  for (const [name, condition, path, message] of validation) {
    it(path === null ? `accepts ${name}` : `rejects ${name} at "${path}"`, () => {
      const result = validateCondition(condition);
      if (path === null) {
        expect(result).toEqual({ ok: true });
        return;
      }
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.path).toBe(path);
      if (message) expect(result.error).toMatch(message);
    });
  }

  it("accepts every condition of the evaluation table that uses only known operators", () => {
    const knownBad = new Set([
      "$and not given an array never matches", "$or with a non-object element never matches",
      "$not given a non-object never matches", "unknown top-level operator never matches",
      "$in not given an array never matches", "$nin not given an array never matches",
      "$regex invalid pattern is false", "$regex invalid pattern on a missing attribute is false",
      "$regex with an unsupported flag is false", "$regex with repeated flags is false",
      "$regex not given a string is false", "$not with an invalid $regex is true",
      "$all not given an array is false", "$vgte with an unparsable bound is false",
      "unknown value operator never matches", "unknown operator beside a passing one",
      "$options alone is a no-op", "a condition that is an array never matches",
      "a condition that is null never matches", "object whose keys mix operators and fields is a literal",
    ]);
    const rejected = Object.values(table)
      .flat()
      .filter(([name, condition]) => !knownBad.has(name) && !validateCondition(condition).ok)
      .map(([name]) => name);
    expect(rejected).toEqual([]);
  });
});

describe("attributesOf", () => {
  // A returning visitor on a phone, as the script sends it (spec §3 User).
  const user: Record<string, unknown> = {
    user_customer_id: "c_42",
    user_id: "u_abc",
    device_id: "d_1",
    anonymous: true,
    tags: ["newsletter"],
    utm_source: "facebook",
    utm_campaign: "spring",
    fbclid: "fb.1",
    latest_session_id: "s_9",
    properties: {
      cf_device_type: "mobile",
      cf_browser_name: "Mobile Safari",
      cf_browser_version: "17.4.1",
      cf_os_name: "iOS",
      cf_screen_width: 390,
      cf_timezone: -60,
      is_first_time_visitor: false,
      cf_current_page_url: "https://LittleSprouts.localhost:4200/products/calm-balm?ref=ad",
      session_utm_source: "facebook",
      tags: ["shadowed"],
      url: "https://shadowed.test/",
      plan: "pro",
    },
    private_fields: {
      user_fields: { plan: "basic", loyalty: "gold" },
      properties: { plan: "pro", orders: [{ total: 80 }, { total: 20 }] },
      tags: ["wholesale"],
    },
    session_fields: { properties: { cart_value: 45 }, tags: ["cart"] },
    hs_fields: { email: "ana@example.com" },
  };
  const attrs = attributesOf(user, { now: 1_700_000_000_000 });

  it("keeps top-level User fields under their wire names", () => {
    expect(attrs).toMatchObject({
      user_customer_id: "c_42",
      user_id: "u_abc",
      device_id: "d_1",
      anonymous: true,
      tags: ["newsletter"],
      utm_source: "facebook",
      utm_campaign: "spring",
      fbclid: "fb.1",
      latest_session_id: "s_9",
    });
  });
  it("exposes user properties at the top level", () => {
    expect(attrs).toMatchObject({
      cf_device_type: "mobile",
      cf_browser_name: "Mobile Safari",
      cf_screen_width: 390,
      is_first_time_visitor: false,
      session_utm_source: "facebook",
      plan: "pro",
    });
  });
  it("does not let a property shadow a User field or a context name", () => {
    expect(attrs.tags).toEqual(["newsletter"]);
    expect(attrs.url).toBe("https://LittleSprouts.localhost:4200/products/calm-balm?ref=ad");
  });
  it("keeps properties reachable by their dotted path", () => {
    expect(evalCondition(attrs, { "properties.tags": "shadowed" })).toBe(true);
  });
  it("flattens private_fields, properties over user_fields", () => {
    expect(attrs.private).toEqual({
      plan: "pro",
      loyalty: "gold",
      orders: [{ total: 80 }, { total: 20 }],
      tags: ["wholesale"],
    });
  });
  it("flattens session_fields", () => {
    expect(attrs.session).toEqual({ cart_value: 45, tags: ["cart"] });
  });
  it("falls back on cf_current_page_url for url, path and domain", () => {
    expect(attrs).toMatchObject({ path: "/products/calm-balm", domain: "littlesprouts.localhost", now: 1_700_000_000_000 });
  });
  it("prefers the context's url, path and domain", () => {
    const a = attributesOf(user, { url: "https://shop.test/cart", path: "/cart", domain: "Shop.TEST" });
    expect(a).toMatchObject({ url: "https://shop.test/cart", path: "/cart", domain: "shop.test" });
    expect(a).not.toHaveProperty("now");
  });
  it("derives path and domain from the context url", () => {
    expect(attributesOf({}, { url: "https://uk.shop.test/a/b?x=1" })).toEqual({
      private: {},
      session: {},
      url: "https://uk.shop.test/a/b?x=1",
      path: "/a/b",
      domain: "uk.shop.test",
    });
  });
  it("leaves path and domain out for an unparsable url", () => {
    expect(attributesOf({}, { url: "not a url" })).toEqual({ private: {}, session: {}, url: "not a url" });
  });
  it("ignores a __proto__ property", () => {
    const a = attributesOf(JSON.parse('{"properties": {"__proto__": {"polluted": 1}}}') as Record<string, unknown>, {});
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
    expect(evalCondition(a, { polluted: 1 })).toBe(false);
  });

  const audiences: [string, Condition, boolean][] = [
    ["mobile visitors", { cf_device_type: { $in: ["mobile", "tablet"] } }, true],
    ["returning visitors", { is_first_time_visitor: false }, true],
    ["new visitors", { is_first_time_visitor: true }, false],
    ["from the spring campaign", { utm_campaign: "spring", utm_source: { $regex: "^face", $options: "i" } }, true],
    ["Safari 17 and later", { cf_browser_name: { $regex: "safari", $options: "i" }, cf_browser_version: { $vgte: "17" } }, true],
    ["on a product page", { path: { $regex: "^/products/" } }, true],
    ["on the UK domain", { domain: "littlesprouts-uk.localhost" }, false],
    ["wholesale customers", { "private.tags": "wholesale" }, true],
    ["gold loyalty", { "private.loyalty": "gold" }, true],
    ["a past order over 50", { "private.orders": { $elemMatch: { total: { $gt: 50 } } } }, true],
    ["a past order over 100", { "private.orders.total": { $gt: 100 } }, false],
    ["with something in the cart", { "session.tags": "cart", "session.cart_value": { $gte: 40 } }, true],
    ["via session_fields directly", { "session_fields.tags": { $all: ["cart"] } }, true],
    ["not newsletter subscribers", { tags: { $nin: ["newsletter"] } }, false],
    ["known email", { "hs_fields.email": { $exists: true } }, true],
    ["without a gclid", { gclid: { $exists: false } }, true],
    ["after a date", { now: { $gte: Date.parse("2023-01-01") } }, true],
    ["wide screens", { cf_screen_width: { $gte: 768 } }, false],
  ];
  for (const [name, condition, expected] of audiences) {
    it(`audience "${name}" is ${expected ? "matched" : "not matched"}`, () => {
      expect(validateCondition(condition)).toEqual({ ok: true });
      expect(evalCondition(attrs, condition)).toBe(expected);
    });
  }
});

describe("conditionAttributes", () => {
  it("names every attribute a condition reads, by its top-level name, through $and, $or, $nor and $not", () => {
    const names = conditionAttributes({
      cf_device_type: "mobile",
      "orders.sku": { $in: ["a"] },
      $and: [{ tags: "vip" }, { $or: [{ "private.tier": 2 }, { $nor: [{ utm_source: { $exists: true } }] }] }],
      $not: { "session.cart": { $elemMatch: { price: { $gt: 10 } } } },
    });
    expect([...names!].sort()).toEqual(["cf_device_type", "orders", "private", "session", "tags", "utm_source"]);
  });

  it("is null when the condition reads the decision time, however deep", () => {
    expect(conditionAttributes({ $or: [{ tags: "a" }, { $not: { now: { $gt: 1 } } }] })).toBeNull();
    expect(conditionAttributes({ "now.x": 1 })).toBeNull();
  });

  it("reads nothing from a malformed condition", () => {
    expect([...conditionAttributes(null)!]).toEqual([]);
    expect([...conditionAttributes({ $and: "x", $or: [1, null] })!]).toEqual([]);
  });
});

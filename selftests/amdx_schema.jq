# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# A JSON Schema (draft 2020-12) validator in jq, for the keywords the
# schemas of Documentation/admin-guide use: $ref (to #/$defs), type, const,
# enum, pattern, minimum, maximum, maxLength, minItems, maxItems,
# uniqueItems, required, properties, additionalProperties, items, oneOf,
# anyOf, allOf, if/then/else.  A keyword it does not know is an error, so
# a schema cannot outgrow it unnoticed.  The test VM has jq but no Python:
# amdx_cli_test.sh checks the real module's output with it; ctest
# (cli.json_schema_jq) checks it agrees with python3-jsonschema.
#
#   jq -r -f amdx_schema.jq --slurpfile NAME SCHEMA.json ... < CASES
#
# Each CASE is {"schema": NAME, "doc": DOCUMENT}.  Printed, one line each:
# why DOCUMENT breaks the schema; why the same document with a key added
# to every object (a newer amdx) does; and a broken copy (schema_version 1,
# or a required key of the top level dropped) that it accepts.  Nothing
# printed: all is well.

def known: ["$schema", "$id", "$defs", "$ref", "title", "description", "type", "const",
	"enum", "pattern", "minimum", "maximum", "maxLength", "minItems", "maxItems",
	"uniqueItems", "required", "properties", "additionalProperties", "items", "oneOf",
	"anyOf", "allOf", "if", "then", "else"];

def type_ok($t):
	if $t == "integer" then type == "number" and . == floor
	else type == $t end;

# The errors of . against $s (within $root), each "PATH: what".
def errs($s; $root; $path):
	. as $v |
	if ($s | type) == "boolean" then
		(if $s then empty else "\($path): no value allowed" end)
	else
		(($s | keys[]) as $k | select(known | index($k) | not) |
			"\($path): schema keyword \($k) not supported by amdx_schema.jq"),
		(if $s["$ref"] != null then
			($s["$ref"] | ltrimstr("#/") | split("/")) as $p |
			$v | errs($root | getpath($p); $root; $path)
		else empty end),
		(if $s.type != null then
			($s.type | if type == "array" then . else [.] end) as $ts |
			if any($ts[]; . as $t | $v | type_ok($t)) then empty
			else "\($path): \($v | tojson) is not \($s.type)" end
		else empty end),
		(if $s | has("const") then
			if $v == $s.const then empty
			else "\($path): \($v | tojson) is not \($s.const | tojson)" end
		else empty end),
		(if $s.enum != null then
			if any($s.enum[]; . == $v) then empty
			else "\($path): \($v | tojson) is not one of \($s.enum | tojson)" end
		else empty end),
		(if $s.pattern != null and ($v | type) == "string" then
			if $v | test($s.pattern) then empty
			else "\($path): \($v | tojson) does not match \($s.pattern)" end
		else empty end),
		(if $s.minimum != null and ($v | type) == "number" and $v < $s.minimum then
			"\($path): \($v) is below \($s.minimum)" else empty end),
		(if $s.maximum != null and ($v | type) == "number" and $v > $s.maximum then
			"\($path): \($v) is above \($s.maximum)" else empty end),
		(if $s.maxLength != null and ($v | type) == "string" and
		    ($v | length) > $s.maxLength then
			"\($path): longer than \($s.maxLength)" else empty end),
		(if ($v | type) == "array" then
			(if $s.minItems != null and ($v | length) < $s.minItems then
				"\($path): fewer than \($s.minItems) items" else empty end),
			(if $s.maxItems != null and ($v | length) > $s.maxItems then
				"\($path): more than \($s.maxItems) items" else empty end),
			(if $s.uniqueItems == true and ($v | length) != ($v | unique | length) then
				"\($path): items not unique" else empty end),
			(if $s.items != null then
				range(0; $v | length) as $i |
				$v[$i] | errs($s.items; $root; "\($path)[\($i)]")
			else empty end)
		else empty end),
		(if ($v | type) == "object" then
			(($s.required // [])[] | select(. as $k | $v | has($k) | not) |
				"\($path): \(.) missing"),
			(($s.properties // {}) | to_entries[] | select(.key as $k | $v | has($k)) |
				.key as $k | $v[$k] | errs(($s.properties[$k]); $root; "\($path).\($k)")),
			(if $s.additionalProperties != null then
				$v | keys[] | select(. as $k | ($s.properties // {}) | has($k) | not) |
				. as $k | $v[$k] | errs($s.additionalProperties; $root; "\($path).\($k)")
			else empty end)
		else empty end),
		(if $s.allOf != null then $s.allOf[] as $o | $v | errs($o; $root; $path)
		else empty end),
		(if $s.anyOf != null then
			if any($s.anyOf[] as $o | [$v | errs($o; $root; $path)] | length == 0; .) then
				empty
			else "\($path): \($v | tojson) matches none of anyOf" end
		else empty end),
		(if $s.oneOf != null then
			[$s.oneOf[] as $o | [$v | errs($o; $root; $path)] | select(length == 0)] |
			length as $n |
			if $n == 1 then empty
			else "\($path): \($v | tojson) matches \($n) of oneOf, not 1" end
		else empty end),
		(if $s["if"] != null then
			if [$v | errs($s["if"]; $root; $path)] | length == 0 then
				(if $s["then"] != null then $v | errs($s["then"]; $root; $path)
				else empty end)
			else
				(if $s["else"] != null then $v | errs($s["else"]; $root; $path)
				else empty end)
			end
		else empty end)
	end;

def valid($s): [errs($s; $s; "$")] | length == 0;

# A key added to every object, as a later release may.
def with_added_keys:
	walk(if type == "object" then . + {"added_in_a_later_release": {"any": ["value"]}}
	     else . end);

.schema as $name | .doc as $doc |
($ARGS.named[$name] // error("no schema named \($name)"))[0] as $s |
($doc | errs($s; $s; "$") | "\($name): \(.)"),
($doc | with_added_keys | errs($s; $s; "$") |
	"\($name): with keys added: \(.)"),
($doc | .schema_version = 1 | if valid($s) then
	"\($name): accepts schema_version 1: \($doc | tojson)" else empty end),
(($s.required // [])[0] as $k | select($k != null) |
	$doc | del(.[$k]) | if valid($s) then
	"\($name): accepts a document without \($k)" else empty end)

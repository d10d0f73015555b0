// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Validate the objects of a Kubernetes List (standard input, as `amdx -j
// partition export` prints it) against the API schemas of the npm package
// kubernetes-models (its OpenAPI schemas, Kubernetes 1.36.0), then against
// the API server's own ResourceSlice rules that the OpenAPI schema does not
// carry (pkg/apis/resource/validation: names, attribute names, one value
// per attribute, the v1 limits).  One line per object; exit 1 on the first
// object that fails.
//
// usage: node fleet_k8s_validate.mjs DIR   (DIR/node_modules/kubernetes-models)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const models = join(process.argv[2], "node_modules", "kubernetes-models");
const doc = JSON.parse(readFileSync(0, "utf8"));

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = (s) =>
  typeof s === "string" && s.length <= 253 && s.split(".").every((l) => l.length <= 63 && dnsLabel.test(l));
const cIdentifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Attribute and capacity names: a C identifier, or DOMAIN/C-identifier.
const qualifiedName = (s) => {
  const i = s.indexOf("/");
  if (i < 0) return s.length <= 32 && cIdentifier.test(s);
  const [domain, id] = [s.slice(0, i), s.slice(i + 1)];
  return dnsSubdomain(domain) && domain.length <= 63 && id.length <= 32 && cIdentifier.test(id);
};

function apiRules(o) {
  const errs = [];
  const need = (ok, what) => ok || errs.push(what);
  need(dnsSubdomain(o.metadata?.name), `metadata.name '${o.metadata?.name}' is not a DNS subdomain`);
  if (o.kind !== "ResourceSlice") return errs;
  const s = o.spec;
  need(dnsSubdomain(s.driver) && s.driver.length <= 63, `spec.driver '${s.driver}' is not a DNS subdomain of at most 63`);
  if (s.nodeName !== undefined) need(dnsSubdomain(s.nodeName), `spec.nodeName '${s.nodeName}' is not a DNS subdomain`);
  need(s.pool.name.length <= 253 && s.pool.name.split("/").every(dnsSubdomain),
       `spec.pool.name '${s.pool.name}' is not DNS subdomains separated by slashes`);
  need(s.pool.generation >= 0 && s.pool.resourceSliceCount >= 1, "spec.pool counts");
  const sets = s.sharedCounters ?? [];
  need(sets.length <= 8, "more than 8 counter sets");
  for (const set of sets) {
    need(dnsLabel.test(set.name) && set.name.length <= 63, `counter set '${set.name}' is not a DNS label`);
    const names = Object.keys(set.counters);
    need(names.length >= 1 && names.length <= 32, `counter set '${set.name}' has ${names.length} counters (1..32)`);
    for (const c of names) need(dnsLabel.test(c) && c.length <= 63, `counter '${c}' is not a DNS label`);
  }
  const devices = s.devices ?? [];
  need(devices.length <= 128, `${devices.length} devices in one slice (at most 128)`);
  need(!(devices.length && sets.length), "devices and sharedCounters in one slice");
  const seen = new Set();
  for (const d of devices) {
    need(dnsLabel.test(d.name) && d.name.length <= 63, `device '${d.name}' is not a DNS label`);
    need(!seen.has(d.name), `device '${d.name}' twice`);
    seen.add(d.name);
    const attrs = Object.entries(d.attributes ?? {});
    const caps = Object.keys(d.capacity ?? {});
    need(attrs.length + caps.length <= 32, `device '${d.name}': more than 32 attributes and capacities`);
    for (const [k, v] of attrs) {
      need(qualifiedName(k), `device '${d.name}': attribute name '${k}'`);
      need(Object.keys(v).length === 1, `device '${d.name}': attribute '${k}' must have exactly one value`);
    }
    for (const k of caps) need(qualifiedName(k), `device '${d.name}': capacity name '${k}'`);
    const cons = d.consumesCounters ?? [];
    need(cons.length <= 2, `device '${d.name}': more than 2 counter consumptions`);
    need(new Set(cons.map((c) => c.counterSet)).size === cons.length, `device '${d.name}': a counter set twice`);
    for (const c of cons)
      need(Object.keys(c.counters).length <= 32, `device '${d.name}': more than 32 counters of '${c.counterSet}'`);
  }
  return errs;
}

if (doc.apiVersion !== "v1" || doc.kind !== "List" || !Array.isArray(doc.items)) {
  console.log("not a v1 List");
  process.exit(1);
}
let bad = 0;
for (const o of doc.items) {
  const dir = o.apiVersion.includes("/") ? o.apiVersion : "v1";
  const file = join(models, dir, `${o.kind}.js`);
  const cls = (await import(pathToFileURL(file).href))[o.kind];
  const what = `${o.apiVersion} ${o.kind} ${o.metadata?.name}`;
  try {
    new cls(o).validate();
  } catch (e) {
    console.log(`${what}: schema: ${e.message}`);
    bad = 1;
    continue;
  }
  const errs = apiRules(o);
  for (const e of errs) console.log(`${what}: ${e}`);
  if (errs.length) bad = 1;
  else console.log(`${what}: valid`);
}
process.exit(bad);

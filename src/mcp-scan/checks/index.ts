/**
 * The ordered MCP-server checklist (mcp.md §9). The report lists checks in
 * this order; ids are stable and equal their file names.
 */
import type { CheckDef } from '../types.ts';
import { check as endpointResolved } from './mcp.endpoint.resolved.ts';
import { check as discoveryManifest } from './mcp.discovery.manifest.ts';
import { check as discoveryConsistent } from './mcp.discovery.consistent.ts';
import { check as transportPost } from './mcp.transport.post.ts';
import { check as lifecycleInitialize } from './mcp.lifecycle.initialize.ts';
import { check as versionNegotiation } from './mcp.lifecycle.version_negotiation.ts';
import { check as versionKnown } from './mcp.protocol.version_known.ts';
import { check as transportNotification } from './mcp.transport.notification.ts';
import { check as transportSession } from './mcp.transport.session.ts';
import { check as versionHeader } from './mcp.transport.version_header.ts';
import { check as transportGet } from './mcp.transport.get.ts';
import { check as protocolModern } from './mcp.protocol.modern.ts';
import { check as toolsList } from './mcp.tools.list.ts';
import { check as toolsNames } from './mcp.tools.names.ts';
import { check as toolsInputSchema } from './mcp.tools.input_schema.ts';
import { check as toolsDescriptions } from './mcp.tools.descriptions.ts';
import { check as toolsAnnotations } from './mcp.tools.annotations.ts';
import { check as methodNotFound } from './mcp.errors.method_not_found.ts';
import { check as invalidParams } from './mcp.errors.invalid_params.ts';
import { check as parseError } from './mcp.errors.parse_error.ts';
import { check as authDiscovery } from './mcp.auth.discovery.ts';

export const MCP_CHECKS: readonly CheckDef[] = [
  endpointResolved, discoveryManifest, discoveryConsistent, transportPost, lifecycleInitialize, versionNegotiation,
  versionKnown, transportNotification, transportSession, versionHeader, transportGet, protocolModern, toolsList,
  toolsNames, toolsInputSchema, toolsDescriptions, toolsAnnotations, methodNotFound, invalidParams, parseError, authDiscovery,
];

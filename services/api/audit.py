"""The audit trail of reads: every search and every document read is logged, one JSON
object per line on the `lexgraph.audit` logger (action, principal, tenant, the ids
returned), and counted in `lexgraph_audit_events_total{tenant, action}`.

The log line names ids, never text: it says who saw which documents and sections without
copying a firm's documents into the log. Tenants are a configured, short list (one per
firm), so labelling the counter by tenant keeps the number of series bounded.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from prometheus_client import Counter

from services.core.access import Principal

log = logging.getLogger("lexgraph.audit")

AUDIT_EVENTS = Counter(
    "lexgraph_audit_events",
    "Audited reads (searches, document reads, related reads) and writes, by tenant and action.",
    ["tenant", "action"],
)


def record(action: str, access: Principal, *, ids: Iterable[str], **fields: str) -> None:
    """One audited event: `action` ("search", "document.read", "related", ...) by
    `access`, returning `ids` (documents, passages and sections, in answer order)."""
    AUDIT_EVENTS.labels(tenant=access.tenant, action=action).inc()
    event = {
        "action": action,
        "principal": access.id,
        "tenant": access.tenant,
        "ids": list(ids),
        **fields,
    }
    log.info("%s", json.dumps(event, ensure_ascii=False, sort_keys=True))

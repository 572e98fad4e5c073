"""Who a caller is and what it may see: principals, roles and document scopes.

An API key maps to a `Principal`: a tenant (the firm), the groups it belongs to (matters,
teams) and its roles. Statutes are public to every principal; a firm's documents are not.
A document belongs to one tenant (the uploader's, never one named in the request) and
carries scopes: the groups that may see it, or `TENANT_WIDE` for every principal of the
tenant. A principal sees a document of its own tenant when it is an admin or shares one
of the document's scopes.

Visibility is applied inside the store queries, never to their results: `vector_filter`
is the payload filter every prefetch of a passage search carries, and `cypher_params`
are the values of the predicate in the Cypher that reaches passages (see
`cypher/queries/document_*.cypher`). Cutting a global top-k afterwards would silently drop
a tenant's documents that other tenants' documents outranked.

Roles are cumulative: a `reader` searches and reads, an `editor` also uploads, replaces
and deletes its tenant's documents, an `admin` also sees every document of its tenant and
may grant any group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from services.core.errors import Forbidden, InvalidQuery

Role = Literal["reader", "editor", "admin"]
ROLES: tuple[Role, ...] = ("reader", "editor", "admin")
# The scope of a document every principal of its tenant may see. Not a valid group name
# (group names are checked by `check_group_name`), so no group can collide with it.
TENANT_WIDE = "@tenant"
_MAX_GROUP_CHARS = 100


@dataclass(frozen=True)
class Principal:
    id: str  # "key:<first 16 hex of the key's hash>", or "development"
    tenant: str
    groups: tuple[str, ...] = ()
    roles: tuple[Role, ...] = ("reader",)

    def has_role(self, role: Role) -> bool:
        """Roles are cumulative: an admin is also an editor and a reader."""
        wanted = ROLES.index(role)
        return any(ROLES.index(r) >= wanted for r in self.roles)

    def require(self, role: Role, action: str) -> None:
        if not self.has_role(role):
            raise Forbidden(
                f"{action} needs the role {role!r}; this key has {', '.join(self.roles) or 'none'}"
            )

    @property
    def is_admin(self) -> bool:
        return self.has_role("admin")

    def visible_scopes(self) -> list[str] | None:
        """The scopes of the documents this principal sees in its tenant; None: all."""
        if self.is_admin:
            return None
        return [TENANT_WIDE, *self.groups]

    def sees(self, tenant: str, scopes: Iterable[str]) -> bool:
        """Whether a document of `tenant` with `scopes` is visible (the same rule as the
        store filters, for the few places that check one known document)."""
        if tenant != self.tenant:
            return False
        visible = self.visible_scopes()
        return visible is None or any(s in visible for s in scopes)

    def vector_filter(self) -> dict[str, list[str]]:
        """Payload field -> allowed values, for every prefetch of a passage search."""
        where = {"tenant": [self.tenant]}
        scopes = self.visible_scopes()
        if scopes is not None:
            where["scopes"] = scopes
        return where

    def cypher_params(self) -> dict[str, Any]:
        """`$tenant`, `$scopes` and `$all_scopes` of the document visibility predicate:
        `p.tenant = $tenant AND ($all_scopes OR any(s IN p.scopes WHERE s IN $scopes))`."""
        scopes = self.visible_scopes()
        return {"tenant": self.tenant, "scopes": scopes or [], "all_scopes": scopes is None}

    def grantable(self, requested: Sequence[str]) -> list[str]:
        """The scopes a new document gets: the requested groups, each one this principal
        belongs to unless it is an admin; none requested means the whole tenant."""
        groups = [check_group_name(g) for g in dict.fromkeys(s.strip() for s in requested) if g]
        if not groups:
            return [TENANT_WIDE]
        if not self.is_admin:
            foreign = [g for g in groups if g not in self.groups]
            if foreign:
                raise Forbidden(
                    f"scopes: this key may only grant its own groups "
                    f"({', '.join(self.groups) or 'none'}), not {', '.join(foreign)}"
                )
        return sorted(groups)


def check_group_name(name: str) -> str:
    """A group name: 1-100 characters, no control characters, not starting with "@"."""
    if not name or len(name) > _MAX_GROUP_CHARS or name.startswith("@"):
        raise InvalidQuery(
            "scopes", f"a group name is 1-{_MAX_GROUP_CHARS} characters, not starting with @"
        )
    if any(ord(c) < 32 or c == "\x7f" for c in name):
        raise InvalidQuery("scopes", "a group name has no control characters")
    return name


def development_principal(tenant: str) -> Principal:
    """The one caller of a development server: admin of the default tenant."""
    return Principal("development", tenant, (), ("admin",))


def principals_by_hash(
    specs: Mapping[str, Mapping[str, Any]], legacy_hashes: Iterable[str], default_tenant: str
) -> dict[str, Principal]:
    """key hash -> principal, from `Settings.api_principals` (hash -> {tenant, groups,
    roles}) and `Settings.api_keys_sha256`. A hash listed only in the latter keeps what
    such a key could do before principals existed: everything, in the default tenant."""
    found: dict[str, Principal] = {}
    for digest in legacy_hashes:
        digest = digest.strip().lower()
        if digest:
            found[digest] = Principal(f"key:{digest[:16]}", default_tenant, (), ("admin",))
    for digest, spec in specs.items():
        digest = digest.strip().lower()
        found[digest] = Principal(
            f"key:{digest[:16]}",
            str(spec["tenant"]),
            tuple(spec.get("groups") or ()),
            tuple(spec.get("roles") or ("reader",)),
        )
    return found

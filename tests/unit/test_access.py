"""Principals: keys map to tenant, groups and roles; roles are cumulative; a key grants
only its own groups; the scope filters say the same as `Principal.sees`; and the API's
middleware gives each key its principal and no header can change it."""

from __future__ import annotations

import hashlib

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError

from services.api.deps import AccessDep
from services.api.security import ApiKeyMiddleware
from services.core.access import TENANT_WIDE, Principal, principals_by_hash
from services.core.errors import Forbidden, InvalidQuery
from services.core.settings import Settings


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


READER = Principal("key:r", "firm-a", ("matter-1",), ("reader",))
EDITOR = Principal("key:e", "firm-a", ("matter-1", "team-tax"), ("editor",))
ADMIN = Principal("key:a", "firm-a", (), ("admin",))


def test_roles_are_cumulative():
    assert ADMIN.has_role("editor") and ADMIN.has_role("reader")
    assert EDITOR.has_role("reader") and not EDITOR.has_role("admin")
    assert not READER.has_role("editor")
    with pytest.raises(Forbidden, match="editor"):
        READER.require("editor", "uploading a document")


def test_a_key_grants_only_its_own_groups_unless_admin():
    assert EDITOR.grantable(["team-tax", " matter-1 ", "team-tax"]) == ["matter-1", "team-tax"]
    assert EDITOR.grantable([]) == [TENANT_WIDE]
    with pytest.raises(Forbidden, match="matter-2"):
        EDITOR.grantable(["matter-1", "matter-2"])
    assert ADMIN.grantable(["matter-2"]) == ["matter-2"]
    with pytest.raises(InvalidQuery):
        ADMIN.grantable(["@tenant"])  # the tenant-wide marker is not a group


@pytest.mark.parametrize(
    ("principal", "tenant", "scopes", "seen"),
    [
        (READER, "firm-a", ["matter-1"], True),
        (READER, "firm-a", [TENANT_WIDE], True),
        (READER, "firm-a", ["team-tax"], False),
        (READER, "firm-b", ["matter-1"], False),  # same group name, other firm
        (ADMIN, "firm-a", ["team-tax"], True),
        (ADMIN, "firm-b", [TENANT_WIDE], False),
    ],
)
def test_filters_say_what_sees_says(principal, tenant, scopes, seen):
    assert principal.sees(tenant, scopes) is seen
    where = principal.vector_filter()
    by_filter = tenant in where["tenant"] and (
        "scopes" not in where or any(s in where["scopes"] for s in scopes)
    )
    assert by_filter is seen
    params = principal.cypher_params()
    by_cypher = params["tenant"] == tenant and (
        params["all_scopes"] or any(s in params["scopes"] for s in scopes)
    )
    assert by_cypher is seen


def test_settings_map_key_hashes_to_principals_and_keep_old_keys_working():
    settings = Settings(
        environment="production",
        api_keys_sha256=[_hash("old-key")],
        api_principals={
            _hash("a-key"): {"tenant": "firm-a", "groups": ["m1"], "roles": ["editor"]}
        },
    )
    found = principals_by_hash(
        {h: s.model_dump() for h, s in settings.api_principals.items()},
        settings.api_keys_sha256,
        settings.default_tenant,
    )
    assert found[_hash("a-key")].tenant == "firm-a"
    assert found[_hash("a-key")].roles == ("editor",)
    assert found[_hash("old-key")].tenant == "default" and found[_hash("old-key")].is_admin
    with pytest.raises(ValidationError):
        Settings(api_principals={_hash("x"): {"tenant": "a", "roles": ["owner"]}})
    with pytest.raises(ValidationError):
        Settings(api_principals={_hash("x"): {"tenant": "a", "groups": ["@tenant"]}})


def _app() -> FastAPI:
    app = FastAPI()
    app.state.settings = Settings()

    @app.get("/v1/whoami")
    def whoami(access: AccessDep) -> dict[str, object]:
        return {"tenant": access.tenant, "groups": list(access.groups), "id": access.id}

    principals = {
        _hash("key-a"): Principal(f"key:{_hash('key-a')[:16]}", "firm-a", ("m1",), ("reader",)),
        _hash("key-b"): Principal(f"key:{_hash('key-b')[:16]}", "firm-b", (), ("admin",)),
    }
    app.add_middleware(ApiKeyMiddleware, principals=principals, open_ops=True)
    return app


def test_the_key_decides_the_tenant_never_a_header():
    with TestClient(_app()) as client:
        a = client.get("/v1/whoami", headers={"X-API-Key": "key-a", "X-Tenant": "firm-b"})
        assert a.status_code == 200 and a.json()["tenant"] == "firm-a"
        assert a.json()["groups"] == ["m1"]
        b = client.get("/v1/whoami", headers={"Authorization": "Bearer key-b"})
        assert b.json()["tenant"] == "firm-b"
        assert client.get("/v1/whoami", headers={"X-Tenant": "firm-a"}).status_code == 401
        assert client.get("/v1/whoami", headers={"X-API-Key": "key-c"}).status_code == 401

"""The Helm chart in helm/, linted and rendered by Helm's own engine.

The dev dependency helm-python-sdk bundles libhelm_c, a C ABI over Helm's official Go SDK
(v4), so `helm_python.lint` and `Chart.render` below do what `helm lint` and
`helm template` do, without a helm binary. The rendered manifests are parsed with PyYAML
(refusing duplicate keys) and checked resource by resource.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

import helm_python as helm
import pytest
import yaml
from deploy_support import CHART_DIR, DOCKERFILE, chart_values, load_yaml_docs

RELEASE = "demo"
NAMESPACE = "games"
FULLNAME = "demo-tilegames"
DB_URL = "postgresql://games:s3cret@db.example:5432/games"
APP_URL = "postgresql://tilegames_app:app-s3cret@db.example:5432/games"
BASE = {"database": {"url": DB_URL, "appUrl": APP_URL}}
PRUNE = f"{FULLNAME}-prune-idempotency"
WEBHOOK_PRUNE = f"{FULLNAME}-prune-webhooks"
SWEEPER = f"{FULLNAME}-clock-sweeper"
MIGRATE = f"{FULLNAME}-migrate"
#: every workload of the default render, (kind, name)
WORKLOADS = [
    ("Deployment", FULLNAME),
    ("Deployment", SWEEPER),
    ("Job", MIGRATE),
    ("CronJob", PRUNE),
    ("CronJob", WEBHOOK_PRUNE),
]
EXISTING_SECRET = {
    "database": {
        "url": "",
        "appUrl": "",
        "existingSecret": "tilegames-db",
        "existingSecretKey": "url",
        "appExistingSecretKey": "app-url",
    }
}


@dataclass
class Rendered:
    docs: list[dict]
    notes: str

    def all(self, kind: str) -> list[dict]:
        return [d for d in self.docs if d["kind"] == kind]

    def one(self, kind: str, name: str | None = None) -> dict:
        found = [d for d in self.all(kind) if name is None or d["metadata"]["name"] == name]
        assert len(found) == 1, f"expected one {kind} {name or ''}, got {len(found)}"
        return found[0]

    def kinds(self) -> list[str]:
        return sorted(d["kind"] for d in self.docs)


def merge(base: dict, extra: dict) -> dict:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def render(values: dict | None = None, *, upgrade: bool = False) -> Rendered:
    with helm.Chart.load(CHART_DIR) as chart:
        out = chart.render(
            merge(BASE, values or {}),
            name=RELEASE,
            namespace=NAMESPACE,
            is_install=not upgrade,
            is_upgrade=upgrade,
        )
    docs: list[dict] = []
    notes = ""
    for path, text in sorted(out.items()):
        if path.endswith("NOTES.txt"):
            notes = text
        elif path.endswith((".yaml", ".yml")):
            docs.extend(load_yaml_docs(text))
    return Rendered(docs, notes)


def is_hook(doc: dict) -> bool:
    return "helm.sh/hook" in (doc["metadata"].get("annotations") or {})


def pod_template(workload: dict) -> dict:
    """The pod template of a Deployment, a Job or a CronJob."""
    spec = workload["spec"]
    if workload["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return spec["template"]


def container(workload: dict) -> dict:
    containers = pod_template(workload)["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def env_map(ctr: dict) -> dict[str, dict]:
    names = [e["name"] for e in ctr.get("env", [])]
    assert len(names) == len(set(names)), f"duplicate env entries: {names}"
    return {e["name"]: e for e in ctr.get("env", [])}


def selects(selector: dict, labels: dict) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


# --- lint -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values",
    [
        BASE,
        {"database": {"existingSecret": "tilegames-db"}},
        EXISTING_SECRET,
        merge(
            BASE,
            {
                "autoscaling": {"enabled": True, "targetMemoryUtilizationPercentage": 80},
                "ingress": {"enabled": True, "className": "nginx"},
                "config": {"RATELIMIT_STORAGE_URI": "redis://redis:6379/0"},
            },
        ),
        merge(
            BASE,
            {
                "idempotencyPruning": {
                    "schedule": "*/30 * * * *",
                    "timeZone": "Europe/Berlin",
                    "retentionHours": 1.5,
                },
                "nodeSelector": {"kubernetes.io/os": "linux"},
            },
        ),
        merge(BASE, {"idempotencyPruning": {"enabled": False}}),
    ],
    ids=[
        "chart-secret",
        "existing-secret",
        "existing-secret-own-keys",
        "hpa-ingress-redis",
        "pruning-tuned",
        "pruning-off",
    ],
)
def test_helm_lint_strict_is_clean(values):
    report = helm.lint(CHART_DIR, values, strict=True, namespace=NAMESPACE)
    assert report["total_charts_linted"] == 1
    assert report["errors"] == []
    # severity 1 is INFO ("icon is recommended"); 2 is WARNING, 3 ERROR.
    assert [m for m in report["messages"] if m["severity"] >= 2] == []


def test_chart_metadata():
    with helm.Chart.load(CHART_DIR) as chart:
        meta = chart.metadata
    assert meta["apiVersion"] == "v2"
    assert meta["name"] == "tilegames"
    assert meta["type"] == "application"
    assert meta["appVersion"]


# --- what is rendered -------------------------------------------------------------------


def test_default_render_has_the_expected_resources():
    r = render()
    assert r.kinds() == sorted(
        [
            "ConfigMap",
            "CronJob",  # idempotency pruning
            "CronJob",  # webhook delivery pruning
            "Deployment",  # the API
            "Deployment",  # the clock sweeper
            "Job",
            "PodDisruptionBudget",
            "Secret",  # the release's Secret holding both database URLs
            "Secret",  # the migration hook's own copy
            "Service",
            "ServiceAccount",
        ]
    )
    for doc in r.docs:
        assert doc["metadata"]["name"].startswith(FULLNAME)
        assert doc["metadata"]["labels"]["app.kubernetes.io/instance"] == RELEASE


def test_render_refuses_a_release_without_a_database():
    # With no DATABASE_URL the service would start an embedded PostgreSQL inside the pod.
    with (
        helm.Chart.load(CHART_DIR) as chart,
        pytest.raises(helm.HelmRenderError, match="database.existingSecret"),
    ):
        chart.render({}, name=RELEASE, namespace=NAMESPACE)


def test_render_refuses_both_database_url_and_existing_secret():
    with pytest.raises(helm.HelmRenderError, match="only one of"):
        render({"database": {"existingSecret": "tilegames-db"}})


def test_render_refuses_an_owner_url_without_the_service_roles_url():
    # The API pods connect only as tilegames_app: without its URL they could not start.
    with pytest.raises(helm.HelmRenderError, match="database.appUrl"):
        render({"database": {"appUrl": ""}})


@pytest.mark.parametrize("name", ["DATABASE_URL", "APP_DATABASE_URL"])
def test_render_refuses_a_database_url_in_secret_env(name):
    with pytest.raises(helm.HelmRenderError, match="not secretEnv"):
        render({"secretEnv": {name: "postgresql://elsewhere/games"}})


# --- deployment -------------------------------------------------------------------------


def test_deployment_probes_hit_the_health_endpoints():
    dep = render().one("Deployment", FULLNAME)
    ctr = container(dep)
    ports = {p["name"]: p["containerPort"] for p in ctr["ports"]}
    assert ports == {"http": 8000}
    assert ctr["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert ctr["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert ctr["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert ctr["command"] == ["python", "-m", "service.cli", "serve"]


def test_selectors_match_the_pod_labels_and_only_the_api_pods():
    r = render({"autoscaling": {"enabled": True}})
    dep = r.one("Deployment", FULLNAME)
    pod_labels = dep["spec"]["template"]["metadata"]["labels"]
    selector = dep["spec"]["selector"]["matchLabels"]
    assert selects(selector, pod_labels)

    svc = r.one("Service", FULLNAME)
    assert selects(svc["spec"]["selector"], pod_labels)
    assert svc["spec"]["ports"][0]["targetPort"] == "http"

    pdb = r.one("PodDisruptionBudget", FULLNAME)
    assert selects(pdb["spec"]["selector"]["matchLabels"], pod_labels)

    # The other workloads' pods (migrations, pruning, the clock sweeper) must never
    # receive Service traffic nor be counted as the API Deployment's.
    for kind, name in WORKLOADS[1:]:
        other_pod_labels = pod_template(r.one(kind, name))["metadata"]["labels"]
        assert not selects(svc["spec"]["selector"], other_pod_labels), name
        assert not selects(selector, other_pod_labels), name
    sweeper = r.one("Deployment", SWEEPER)
    assert selects(
        sweeper["spec"]["selector"]["matchLabels"], pod_template(sweeper)["metadata"]["labels"]
    )
    assert not selects(sweeper["spec"]["selector"]["matchLabels"], pod_labels)

    hpa = r.one("HorizontalPodAutoscaler", FULLNAME)
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": dep["metadata"]["name"],
    }


def dockerfile_user() -> str:
    users = re.findall(r"^USER\s+(\S+)", DOCKERFILE.read_text(), flags=re.MULTILINE)
    return users[-1]


@pytest.mark.parametrize(("kind", "name"), WORKLOADS)
def test_pods_run_as_non_root_on_a_read_only_root_filesystem(kind, name):
    workload = render().one(kind, name)
    pod = pod_template(workload)["spec"]
    psc = pod["securityContext"]
    assert psc["runAsNonRoot"] is True
    assert psc["runAsUser"] != 0
    # The same UID:GID the image's USER names, so file permissions agree.
    assert f"{psc['runAsUser']}:{psc['runAsGroup']}" == dockerfile_user()
    assert pod["automountServiceAccountToken"] is False

    sc = container(workload)["securityContext"]
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]

    mounts = {m["mountPath"]: m["name"] for m in container(workload)["volumeMounts"]}
    assert mounts["/tmp"] == "tmp"
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes["tmp"]

    resources = container(workload)["resources"]
    assert resources["requests"]["cpu"] and resources["limits"]["memory"]


def test_env_wiring_with_the_chart_managed_secret():
    r = render()
    cm = r.one("ConfigMap", FULLNAME)
    assert cm["data"] == {
        "AUTO_MIGRATE": "0",
        "LOG_LEVEL": "INFO",
        "PORT": "8000",
        "RATELIMIT_STORAGE_URI": "memory://",
        "WEB_CONCURRENCY": "2",
        "WEBHOOK_ALLOW_LOOPBACK": "0",
    }
    dep = r.one("Deployment", FULLNAME)
    ctr = container(dep)
    assert {"configMapRef": {"name": cm["metadata"]["name"]}} in ctr["envFrom"]

    ref = env_map(ctr)["APP_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    secret = r.one("Secret", ref["name"])
    assert not is_hook(secret)
    assert base64.b64decode(secret["data"][ref["key"]]).decode() == APP_URL

    # The URLs (they carry passwords) appear in Secrets only.
    for doc in r.docs:
        if doc["kind"] != "Secret":
            assert "s3cret" not in yaml.safe_dump(doc)


def test_the_api_pods_connect_as_the_service_role_and_never_get_the_owners_url():
    r = render()
    for values in ({}, EXISTING_SECRET):
        env = env_map(container(render(values).one("Deployment", FULLNAME)))
        assert "APP_DATABASE_URL" in env and "DATABASE_URL" not in env
    # With AUTO_MIGRATE=0 (the Job migrates), `serve` needs no owner URL.
    assert r.one("ConfigMap")["data"]["AUTO_MIGRATE"] == "0"


@pytest.mark.parametrize(("kind", "name"), [w for w in WORKLOADS if w[0] != "Deployment"])
def test_migrations_and_pruning_run_as_the_owner(kind, name):
    secret = render().one("Secret", FULLNAME)
    env = env_map(container(render().one(kind, name)))
    owner = env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert owner["key"] == "DATABASE_URL"
    if kind == "CronJob":  # deleting old records is the owner's right only
        assert "APP_DATABASE_URL" not in env
        assert base64.b64decode(secret["data"][owner["key"]]).decode() == DB_URL
    else:  # the Job also gives tilegames_app the password of its URL
        assert env["APP_DATABASE_URL"]["valueFrom"]["secretKeyRef"]["name"] == owner["name"]


def test_env_wiring_with_an_existing_secret():
    r = render(EXISTING_SECRET)
    assert r.all("Secret") == []  # nothing to manage: no URL, no secretEnv
    owner = {"name": "tilegames-db", "key": "url"}
    app = {"name": "tilegames-db", "key": "app-url"}
    for (kind, name), wanted in zip(
        WORKLOADS,
        (
            {"APP_DATABASE_URL": app},
            {"APP_DATABASE_URL": app},
            {"DATABASE_URL": owner, "APP_DATABASE_URL": app},
            {"DATABASE_URL": owner},
            {"DATABASE_URL": owner},
        ),
        strict=True,
    ):
        env = env_map(container(r.one(kind, name)))
        refs = {var: env[var]["valueFrom"]["secretKeyRef"] for var in wanted}
        assert refs == wanted, name
        assert {"DATABASE_URL", "APP_DATABASE_URL"} & set(env) == set(wanted), name
    assert (
        "checksum/secret"
        not in r.one("Deployment", FULLNAME)["spec"]["template"]["metadata"]["annotations"]
    )


def test_env_is_easy_to_extend():
    r = render(
        {
            "config": {"WEB_CONCURRENCY": 4, "NEW_SETTING": "on"},
            "secretEnv": {"RATELIMIT_STORAGE_URI": "redis://:pw@redis:6379/0"},
            "extraEnv": [
                {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}
            ],
            "extraEnvFrom": [{"secretRef": {"name": "more-settings"}}],
        }
    )
    cm = r.one("ConfigMap", FULLNAME)
    assert cm["data"]["WEB_CONCURRENCY"] == "4"  # numbers are quoted into strings
    assert cm["data"]["NEW_SETTING"] == "on"

    secret = r.one("Secret", FULLNAME)
    assert base64.b64decode(secret["data"]["RATELIMIT_STORAGE_URI"]).decode().startswith("redis")

    ctr = container(r.one("Deployment", FULLNAME))
    env = env_map(ctr)
    assert env["RATELIMIT_STORAGE_URI"]["valueFrom"]["secretKeyRef"] == {
        "name": FULLNAME,
        "key": "RATELIMIT_STORAGE_URI",
    }
    assert env["POD_IP"]["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP"
    assert {"secretRef": {"name": "more-settings"}} in ctr["envFrom"]


def test_port_follows_container_port():
    r = render({"containerPort": 9000})
    assert r.one("ConfigMap")["data"]["PORT"] == "9000"
    dep = r.one("Deployment", FULLNAME)
    assert container(dep)["ports"][0]["containerPort"] == 9000
    assert dep["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"] == "9000"
    assert env_map(container(r.one("Job", MIGRATE)))["PORT"]["value"] == "9000"


def test_config_changes_roll_the_pods():
    def checksum(values):
        annotations = render(values).one("Deployment", FULLNAME)["spec"]["template"]["metadata"][
            "annotations"
        ]
        return annotations["checksum/config"], annotations["checksum/secret"]

    config_a, secret_a = checksum({})
    config_b, secret_b = checksum({"config": {"LOG_LEVEL": "debug"}})
    config_c, secret_c = checksum({"database": {"appUrl": APP_URL + "?sslmode=require"}})
    assert config_a != config_b and secret_a == secret_b
    assert config_a == config_c and secret_a != secret_c


def test_image_tag_defaults_to_app_version_and_a_digest_pins_it():
    with helm.Chart.load(CHART_DIR) as chart:
        app_version = chart.metadata["appVersion"]
    image = container(render().one("Deployment", FULLNAME))["image"]
    assert image == f"tilegames-service:{app_version}"
    pinned = render(
        {"image": {"repository": "reg.example/tg", "tag": "1.2", "digest": "sha256:ab"}}
    )
    for kind, name in WORKLOADS:
        assert container(pinned.one(kind, name))["image"] == "reg.example/tg@sha256:ab"


# --- migration hook ---------------------------------------------------------------------


@pytest.mark.parametrize("upgrade", [False, True], ids=["install", "upgrade"])
def test_migration_job_is_a_pre_install_pre_upgrade_hook(upgrade):
    r = render(upgrade=upgrade)
    job = r.one("Job", MIGRATE)
    ann = job["metadata"]["annotations"]
    assert ann["helm.sh/hook"] == "pre-install,pre-upgrade"
    policies = ann["helm.sh/hook-delete-policy"].split(",")
    assert "before-hook-creation" in policies and "hook-succeeded" in policies

    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    assert job["spec"]["backoffLimit"] >= 1
    ctr = container(job)
    assert ctr["command"] == ["python", "-m", "service.cli", "migrate"]

    # Hooks run before the release's own resources exist: the Job may not depend on them.
    assert "envFrom" not in ctr
    assert "serviceAccountName" not in pod
    env = env_map(ctr)
    assert env["AUTO_MIGRATE"]["value"] == "0"
    assert env["LOG_LEVEL"]["value"] == "INFO"
    ref = env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    hook_secret = r.one("Secret", ref["name"])
    assert is_hook(hook_secret)
    hook_ann = hook_secret["metadata"]["annotations"]
    assert hook_ann["helm.sh/hook"] == ann["helm.sh/hook"]
    assert int(hook_ann["helm.sh/hook-weight"]) < int(ann["helm.sh/hook-weight"])
    assert "hook-succeeded" in hook_ann["helm.sh/hook-delete-policy"]
    assert base64.b64decode(hook_secret["data"][ref["key"]]).decode() == DB_URL
    app_ref = env["APP_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert app_ref["name"] == ref["name"]
    assert base64.b64decode(hook_secret["data"][app_ref["key"]]).decode() == APP_URL

    # Every non-hook resource is installed after the hook, so nothing else is a hook.
    assert {d["kind"] for d in r.docs if is_hook(d)} == {"Job", "Secret"}


def test_migrations_can_be_turned_off():
    r = render({"migrations": {"enabled": False}})
    assert r.all("Job") == []
    assert [d for d in r.docs if is_hook(d)] == []


# --- idempotency pruning ----------------------------------------------------------------


def test_prune_cronjob_runs_the_prune_command_with_the_retention_from_values():
    r = render()
    cron = r.one("CronJob", PRUNE)
    assert len(cron["metadata"]["name"]) <= 52  # CronJob names longer than 52 are refused
    assert not is_hook(cron)  # installed with the release, after its Secret and ConfigMap
    spec = cron["spec"]
    assert spec["schedule"] == "17 * * * *"
    assert spec["concurrencyPolicy"] == "Forbid"
    assert spec["successfulJobsHistoryLimit"] >= 1 and spec["failedJobsHistoryLimit"] >= 1
    pod = pod_template(cron)["spec"]
    assert pod["restartPolicy"] == "Never"
    assert pod["serviceAccountName"] == r.one("ServiceAccount")["metadata"]["name"]
    ctr = container(cron)
    prune = ["python", "-m", "service.cli", "prune-idempotency", "--older-than-hours"]
    assert ctr["command"] == [*prune, "24"]
    assert ctr["resources"]["limits"]["memory"]

    tuned = render({"idempotencyPruning": {"schedule": "*/10 * * * *", "retentionHours": 72}}).one(
        "CronJob", PRUNE
    )
    assert tuned["spec"]["schedule"] == "*/10 * * * *"
    assert container(tuned)["command"] == [*prune, "72"]


def test_prune_cronjob_refuses_a_retention_that_is_not_positive():
    with pytest.raises(helm.HelmRenderError, match="retentionHours"):
        render({"idempotencyPruning": {"retentionHours": 0}})


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, {"name": FULLNAME, "key": "DATABASE_URL"}),
        (EXISTING_SECRET, {"name": "tilegames-db", "key": "url"}),
    ],
    ids=["chart-secret", "existing-secret"],
)
def test_prune_cronjob_env_matches_the_api_pods_but_for_the_owners_url(values, expected):
    r = render(values)
    cron_ctr = container(r.one("CronJob", PRUNE))
    api_ctr = container(r.one("Deployment", FULLNAME))
    env = env_map(cron_ctr)
    assert env["DATABASE_URL"]["valueFrom"]["secretKeyRef"] == expected
    if not values:
        # Not a hook, so it reads the release's own Secret rather than the hook's copy.
        assert not is_hook(r.one("Secret", expected["name"]))
    api_env = env_map(api_ctr)
    assert {k: v for k, v in env.items() if k != "DATABASE_URL"} == {
        k: v for k, v in api_env.items() if k != "APP_DATABASE_URL"
    }
    assert cron_ctr["envFrom"] == api_ctr["envFrom"]
    assert {"configMapRef": {"name": FULLNAME}} in cron_ctr["envFrom"]


def test_prune_cronjob_can_be_turned_off():
    r = render({"idempotencyPruning": {"enabled": False}})
    assert [c["metadata"]["name"] for c in r.all("CronJob")] == [WEBHOOK_PRUNE]
    assert r.one("Deployment", FULLNAME)


# --- webhook delivery pruning -----------------------------------------------------------


def test_webhook_pruning_cronjob_runs_daily_with_a_week_of_retention():
    r = render()
    cron = r.one("CronJob", WEBHOOK_PRUNE)
    assert cron["spec"]["schedule"] == "43 3 * * *"
    assert cron["spec"]["concurrencyPolicy"] == "Forbid"
    assert not is_hook(cron)
    prune = ["python", "-m", "service.cli", "prune-webhooks", "--older-than-hours"]
    assert container(cron)["command"] == [*prune, "168"]
    tuned = render({"webhookPruning": {"retentionHours": 48}}).one("CronJob", WEBHOOK_PRUNE)
    assert container(tuned)["command"] == [*prune, "48"]
    with pytest.raises(helm.HelmRenderError, match="webhookPruning.retentionHours"):
        render({"webhookPruning": {"retentionHours": -1}})
    off = render({"webhookPruning": {"enabled": False}})
    assert [c["metadata"]["name"] for c in off.all("CronJob")] == [PRUNE]


# --- clock sweeper ----------------------------------------------------------------------


def test_clock_sweeper_sweeps_every_interval_as_the_service_role():
    r = render()
    sweeper = r.one("Deployment", SWEEPER)
    assert sweeper["spec"]["replicas"] == 1
    ctr = container(sweeper)
    sweep = ["python", "-m", "service.cli", "sweep-clocks", "--every"]
    assert ctr["command"] == [*sweep, "2", "--limit", "1000"]
    api_env = env_map(container(r.one("Deployment", FULLNAME)))
    assert env_map(ctr) == api_env  # the API pods' own settings and APP_DATABASE_URL only
    assert "ports" not in ctr  # it serves nothing
    tuned = render({"clockSweeper": {"intervalSeconds": 0.5, "limit": 200}})
    assert container(tuned.one("Deployment", SWEEPER))["command"] == [
        *sweep,
        "0.5",
        "--limit",
        "200",
    ]
    with pytest.raises(helm.HelmRenderError, match="clockSweeper.intervalSeconds"):
        render({"clockSweeper": {"intervalSeconds": 0}})


def test_clock_sweeper_can_be_turned_off():
    r = render({"clockSweeper": {"enabled": False}})
    assert [d["metadata"]["name"] for d in r.all("Deployment")] == [FULLNAME]


# --- scaling ----------------------------------------------------------------------------


def test_replicas_without_autoscaling():
    r = render({"replicaCount": 3})
    assert r.one("Deployment", FULLNAME)["spec"]["replicas"] == 3
    assert r.all("HorizontalPodAutoscaler") == []


def test_hpa_scales_on_cpu_and_owns_the_replica_count():
    r = render(
        {
            "autoscaling": {
                "enabled": True,
                "minReplicas": 3,
                "maxReplicas": 12,
                "targetCPUUtilizationPercentage": 65,
            }
        }
    )
    assert "replicas" not in r.one("Deployment", FULLNAME)["spec"]
    hpa = r.one("HorizontalPodAutoscaler", FULLNAME)
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["minReplicas"] == 3 and hpa["spec"]["maxReplicas"] == 12
    assert hpa["spec"]["metrics"] == [
        {
            "type": "Resource",
            "resource": {
                "name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 65},
            },
        }
    ]


def test_notes_warn_about_per_pod_rate_limits_with_several_replicas():
    assert "WARNING" not in render().notes
    assert "RATELIMIT_STORAGE_URI" in render({"replicaCount": 2}).notes
    assert "WARNING" in render({"autoscaling": {"enabled": True}}).notes
    shared = {"replicaCount": 2, "config": {"RATELIMIT_STORAGE_URI": "redis://redis:6379/0"}}
    assert "WARNING" not in render(shared).notes


def test_ingress_routes_to_the_service():
    r = render({"ingress": {"enabled": True, "className": "nginx"}})
    ing = r.one("Ingress", FULLNAME)
    assert ing["spec"]["ingressClassName"] == "nginx"
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": r.one("Service")["metadata"]["name"], "port": {"name": "http"}}


# --- values -----------------------------------------------------------------------------

VALUES_REF = re.compile(r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)")


def test_templates_reference_only_values_that_exist():
    """A typo in `.Values.x.y` renders as empty instead of failing; catch it here."""
    values = chart_values()
    missing = []
    for template in sorted((CHART_DIR / "templates").glob("*")):
        for match in VALUES_REF.finditer(template.read_text()):
            node = values
            for part in match.group(1).strip(".").split("."):
                if not isinstance(node, dict) or part not in node:
                    missing.append(f"{template.name}: .Values{match.group(1)}")
                    break
                node = node[part]
    assert missing == []

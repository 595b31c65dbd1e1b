#!/usr/bin/env python3
"""The container image's and Kubernetes' files (docker/, deploy/k8s/) against what they rely on.

- The image's build stage runs exactly the scripts CI and run.sh run, and its runtime stage
  installs exactly the Debian packages whose libraries the binaries link.
- The proxy configurations in docker/nginx/ and deploy/k8s/proxy.yaml are what
  deploy/nginx/render-shards.sh writes now for the shards beside them.
- The manifests agree with the server and with each other: probes, ports, the shards' names,
  the governing Service, the grace periods.
- The image's entry point passes the right shard name, and its health check tells a server that
  answers from one that does not (against a real carc-server on loopback).

  deploy_test.py --source-dir DIR --server CARC_SERVER --binary FILE [--binary FILE ...]
"""

import argparse
import http.server
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import unittest
from pathlib import Path

import yaml

ARGS = None  # set in main()


def source(path):
    return ARGS.source_dir / path


def read(path):
    return source(path).read_text()


def render_shards(listen, shards):
    """What deploy/nginx/render-shards.sh prints for LISTEN and {name: address}."""
    pairs = [f"{name}={address}" for name, address in shards.items()]
    result = subprocess.run([source("deploy/nginx/render-shards.sh"), str(listen), *pairs],
                            capture_output=True, text=True, check=True, timeout=10)
    return result.stdout


def render_command(listen, shards):
    pairs = " ".join(f"{name}={address}" for name, address in shards.items())
    return f"deploy/nginx/render-shards.sh {listen} {pairs}"


# ---- the Dockerfile ----------------------------------------------------------------------------

class Instruction:
    def __init__(self, keyword, text):
        self.keyword = keyword
        self.text = text

    def exec_form(self):
        """The arguments of an exec-form instruction (JSON array), or None."""
        text = self.text
        while text.startswith("--"):  # flags such as HEALTHCHECK's --interval=10s
            text = text.split(None, 1)[1]
        if self.keyword == "HEALTHCHECK":
            text = text.removeprefix("CMD").strip()
        return json.loads(text) if text.startswith("[") else None


def dockerfile_stages(text):
    """The Dockerfile's stages: a list of (FROM's arguments, [Instruction])."""
    lines = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    stages = []
    for line in lines:
        keyword, _, rest = line.strip().partition(" ")
        keyword = keyword.upper()
        rest = " ".join(rest.split())
        if keyword == "FROM":
            stages.append((rest, []))
        else:
            stages[-1][1].append(Instruction(keyword, rest))
    return stages


def stage_named(stages, name):
    for from_args, instructions in stages:
        if from_args.lower().endswith(f" as {name}"):
            return instructions
    raise AssertionError(f"docker/Dockerfile has no stage named {name}")


def apt_packages(command):
    """The packages an `apt-get install` in a shell command names."""
    words = shlex.split(command)
    packages = []
    for i, word in enumerate(words):
        if word == "install" and i > 0 and words[i - 1] == "apt-get":
            for package in words[i + 1:]:
                if package in ("&&", ";", "|"):
                    break
                if not package.startswith("-"):
                    packages.append(package)
    return packages


def candidate_paths(library):
    """The paths dpkg may know a library's file by: Debian 12 merges /lib into /usr/lib."""
    paths = {library, os.path.realpath(library)}
    for path in list(paths):
        if path.startswith("/usr/lib/"):
            paths.add(path.removeprefix("/usr"))
        elif path.startswith("/lib/"):
            paths.add("/usr" + path)
    return paths


def linked_packages(binaries):
    """The Debian packages holding the shared libraries the binaries link (one dpkg -S: each
    call reads every package's file list)."""
    libraries = set()
    for binary in binaries:
        result = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True,
                                timeout=10)
        libraries |= set(re.findall(r"=> (/\S+)", result.stdout))
    paths = sorted(set().union(*(candidate_paths(library) for library in libraries)))
    result = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True, timeout=30)
    owner = {}
    for line in result.stdout.splitlines():
        packages, path = line.split(": ", 1)
        owner[path] = packages.split(":")[0]
    packages = set()
    for library in libraries:
        found = [owner[path] for path in candidate_paths(library) if path in owner]
        if not found:
            raise AssertionError(f"no Debian package holds {library}")
        packages.add(found[0])
    return packages


class DockerfileTest(unittest.TestCase):
    def setUp(self):
        self.stages = dockerfile_stages(read("docker/Dockerfile"))
        self.build = stage_named(self.stages, "build")
        self.runtime = self.stages[-1][1]

    def of(self, keyword, instructions=None):
        return [i for i in (instructions or self.runtime) if i.keyword == keyword]

    def test_the_build_stage_runs_the_scripts_that_ci_and_run_sh_run(self):
        runs = [i.exec_form() for i in self.of("RUN", self.build)]
        self.assertEqual(runs, [["bash", "-c", "source scripts/deps.sh && carc_install_deps"],
                                ["scripts/build-release.sh"]])
        install = "source scripts/deps.sh\ncarc_install_deps\n"
        self.assertIn(install, read("scripts/test.sh"), "CI's script installs otherwise")
        run_sh = read("scripts/run.sh")
        self.assertIn(install, run_sh)
        self.assertIn("\n./scripts/build-release.sh", run_sh)
        self.assertNotIn("cmake", run_sh, "run.sh builds only through build-release.sh")

    def test_the_image_takes_the_binaries_that_the_release_build_makes(self):
        targets = re.search(r"--target ([^\n]+)", read("scripts/build-release.sh")).group(1).split()
        copied = []
        for copy in self.of("COPY"):
            if copy.text.startswith("--from=build "):
                copied += copy.text.split()[1:-1]
        binaries = [Path(p).name for p in copied if "/build/release/" in p]
        self.assertEqual(sorted(binaries), ["carc-client", "carc-db", "carc-server"])
        for binary in binaries:
            self.assertIn(binary, targets)
        self.assertIn("/src/web/dist/", copied)

    def test_the_runtime_installs_the_packages_of_every_linked_library_and_no_other(self):
        installed = []
        for run in self.of("RUN"):
            installed += apt_packages(run.text)
        needed = linked_packages(ARGS.binaries)
        self.assertEqual(sorted(installed), sorted(needed))

    def test_the_runtime_runs_the_server_unprivileged_with_its_log_on_the_volume(self):
        config = tomllib.loads(read("docker/carc.toml"))
        user = self.of("USER")[-1].text.split(":")[0]
        self.assertTrue(user.isdigit() and int(user) != 0, "a numeric user other than root")
        volumes = self.of("VOLUME")[0].exec_form()
        self.assertEqual([str(Path(config["db"]).parent)], volumes)
        self.assertEqual(self.of("EXPOSE")[0].text.split(),
                         [str(config["port"]), str(config["operator-port"])])
        self.assertEqual(config["address"], "0.0.0.0")
        self.assertEqual(config["operator-address"], "0.0.0.0")
        self.assertEqual(self.of("STOPSIGNAL")[0].text, "SIGTERM")
        self.assertEqual(self.of("HEALTHCHECK")[0].exec_form(), ["carc-healthz"])
        self.assertEqual(self.of("ENTRYPOINT")[0].exec_form(), ["carc-entrypoint"])
        copies = {}  # destination: the first source
        for copy in self.of("COPY"):
            paths = [p for p in copy.text.split() if not p.startswith("--")]
            copies[paths[-1]] = paths[0]
        self.assertEqual(copies["/usr/local/bin/carc-healthz"], "docker/healthz.sh")
        self.assertEqual(copies["/usr/local/bin/carc-entrypoint"], "docker/entrypoint.sh")
        self.assertEqual(copies["/etc/carc/carc.toml"], "docker/carc.toml")
        self.assertEqual(copies["/usr/share/carc/web/"], "/src/web/dist/")
        self.assertEqual(config["web-root"], "/usr/share/carc/web")


# ---- compose -----------------------------------------------------------------------------------

class ComposeTest(unittest.TestCase):
    def setUp(self):
        self.compose = yaml.safe_load(read("docker/compose.yaml"))
        self.port = tomllib.loads(read("docker/carc.toml"))["port"]
        services = self.compose["services"]
        self.shards = {name: s for name, s in services.items()
                       if "CARC_SHARD" in s.get("environment", {})}
        self.proxy = services["proxy"]

    def test_two_shards_each_with_its_own_volume_and_address(self):
        self.assertEqual(len(self.shards), 2)
        names = [s["environment"]["CARC_SHARD"] for s in self.shards.values()]
        self.assertEqual(len(set(names)), 2)
        volumes = [s["volumes"] for s in self.shards.values()]
        for mounts in volumes:
            self.assertEqual(len(mounts), 1)
            self.assertTrue(mounts[0].endswith(":/var/lib/carc"))
            self.assertIn(mounts[0].split(":")[0], self.compose["volumes"])
        self.assertEqual(len({m[0] for m in volumes}), 2, "each shard has a volume of its own")
        addresses = [s["networks"]["carc"]["ipv4_address"] for s in self.shards.values()]
        self.assertEqual(len(set(addresses)), 2)
        for shard in self.shards.values():
            self.assertEqual(shard["build"]["dockerfile"], "docker/Dockerfile")
            self.assertGreater(int(shard["stop_grace_period"].removesuffix("s")), 5,
                               "more than the server's --shutdown-grace")

    def test_the_proxy_configuration_is_what_render_shards_writes_for_these_shards(self):
        listen = self.proxy["ports"][0].split(":")[-1]
        mounts = [v.split(":") for v in self.proxy["volumes"]]
        self.assertEqual(mounts[0][:2], ["./nginx/nginx.conf", "/etc/nginx/nginx.conf"])
        mount = mounts[1]
        self.assertEqual(mount[1], "/etc/nginx/conf.d/default.conf")
        shards = {s["environment"]["CARC_SHARD"]: f"{name}:{self.port}"
                  for name, s in self.shards.items()}
        expected = render_shards(listen, shards)
        written = (source("docker") / mount[0]).read_text()
        self.assertEqual(written, expected, "write it again with:\n  " +
                         render_command(listen, shards) + " > docker/nginx/shards.conf")
        for name in self.shards:
            self.assertEqual(self.proxy["depends_on"][name]["condition"], "service_healthy")


class ProxyConfigurationTest(unittest.TestCase):
    NGINX = "/usr/sbin/nginx"

    @unittest.skipUnless(os.access(NGINX, os.X_OK), "nginx is not installed")
    def test_nginx_accepts_the_main_configuration_with_the_routes(self):
        """nginx -t on docker/nginx/nginx.conf, its paths moved into a scratch directory and
        without its user (the official image's, which Debian's nginx does not have), with routes
        to shards on loopback (the real ones name hosts only the containers know)."""
        with tempfile.TemporaryDirectory() as scratch:
            config = read("docker/nginx/nginx.conf")
            for path, replacement in (("/etc/nginx/conf.d", f"{scratch}/conf.d"),
                                      ("/var/log/nginx", scratch), ("/var/run", scratch),
                                      ("user nginx;", "")):
                self.assertIn(path, config)
                config = config.replace(path, replacement)
            Path(scratch, "nginx.conf").write_text(config)
            Path(scratch, "conf.d").mkdir()
            Path(scratch, "conf.d", "shards.conf").write_text(
                render_shards(18080, {"a": "127.0.0.1:18081", "b": "127.0.0.1:18082"}))
            result = subprocess.run(
                [self.NGINX, "-t", "-p", scratch, "-c", f"{scratch}/nginx.conf"],
                capture_output=True, text=True, timeout=10)
            self.assertEqual(result.returncode, 0, result.stderr)


# ---- Kubernetes --------------------------------------------------------------------------------

def manifests():
    objects = []
    for path in sorted(source("deploy/k8s").glob("*.yaml")):
        objects += [(path.name, o) for o in yaml.safe_load_all(path.read_text()) if o]
    return objects


class KubernetesTest(unittest.TestCase):
    def setUp(self):
        self.objects = manifests()
        self.by_kind_name = {(o.get("kind"), o.get("metadata", {}).get("name")): o
                             for _, o in self.objects}
        self.statefulset = self.one("StatefulSet", "carc")
        self.pod = self.statefulset["spec"]["template"]
        self.server = self.pod["spec"]["containers"][0]
        config_map = self.one("ConfigMap", "carc-config")
        self.config = tomllib.loads(config_map["data"]["carc.toml"])

    def one(self, kind, name):
        if (kind, name) not in self.by_kind_name:
            self.fail(f"no {kind} {name} in deploy/k8s/")
        return self.by_kind_name[(kind, name)]

    def named_port(self, container, name):
        return next(p["containerPort"] for p in container["ports"] if p["name"] == name)

    def test_every_object_has_an_api_version_a_kind_and_a_name_of_its_own(self):
        seen = set()
        for file, o in self.objects:
            for key in ("apiVersion", "kind"):
                self.assertTrue(o.get(key), f"{file}: an object without {key}")
            name = o.get("metadata", {}).get("name")
            self.assertTrue(name, f"{file}: a {o['kind']} without a name")
            self.assertNotIn((o["kind"], name), seen, f"{file}: {o['kind']} {name} twice")
            seen.add((o["kind"], name))

    def test_the_statefulset_is_governed_by_a_headless_service_that_selects_its_pods(self):
        service = self.one("Service", self.statefulset["spec"]["serviceName"])
        self.assertEqual(service["spec"]["clusterIP"], "None")
        labels = self.pod["metadata"]["labels"]
        self.assertEqual(self.statefulset["spec"]["selector"]["matchLabels"], labels)
        self.assertLessEqual(service["spec"]["selector"].items(), labels.items())
        self.assertEqual(self.statefulset["spec"]["volumeClaimTemplates"][0]["metadata"]["name"],
                         "games")

    def test_the_probes_ask_the_servers_health_endpoint_on_the_operators_port(self):
        self.assertEqual(self.named_port(self.server, "http"), self.config["port"])
        self.assertEqual(self.config["address"], "0.0.0.0")
        port = self.named_port(self.server, "operator")
        self.assertEqual(port, self.config["operator-port"])
        self.assertEqual(self.config["operator-address"], "0.0.0.0")
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            check = self.server[probe]["httpGet"]
            self.assertEqual(check["path"], "/healthz", probe)
            self.assertIn(check["port"], ("operator", port), probe)

    def test_the_game_log_is_on_the_claimed_volume_and_the_config_where_the_image_reads_it(self):
        mounts = {m["name"]: m["mountPath"] for m in self.server["volumeMounts"]}
        self.assertEqual(str(Path(self.config["db"]).parent), mounts["games"])
        self.assertEqual(mounts["config"], "/etc/carc")  # docker/entrypoint.sh's carc.toml
        self.assertEqual(self.config["web-root"],
                         tomllib.loads(read("docker/carc.toml"))["web-root"])

    def test_a_stopping_pod_has_time_to_drain(self):
        grace = self.pod["spec"]["terminationGracePeriodSeconds"]
        self.assertGreater(grace, self.config["shutdown-grace"] + 5)

    def test_requests_and_limits_are_set(self):
        resources = self.server["resources"]
        for kind in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                self.assertIn(resource, resources[kind])

    def test_the_disruption_budget_stops_one_shard_at_a_time(self):
        budget = self.one("PodDisruptionBudget", "carc")
        self.assertEqual(budget["spec"]["maxUnavailable"], 1)
        self.assertEqual(budget["spec"]["selector"]["matchLabels"], self.pod["metadata"]["labels"])

    def shards(self):
        """{shard name: the address of its Service}, one per pod of the StatefulSet."""
        env = {e["name"]: e["value"] for e in self.server["env"]}
        prefix = env["CARC_SHARD_PREFIX"]
        name = self.statefulset["metadata"]["name"]
        shards = {}
        for ordinal in range(self.statefulset["spec"]["replicas"]):
            shard = f"{prefix}{ordinal}"
            self.assertRegex(shard, r"^[a-z][a-z0-9]{0,15}$")
            service = self.one("Service", f"{name}-{shard}")
            self.assertEqual(service["spec"]["selector"]["statefulset.kubernetes.io/pod-name"],
                             f"{name}-{ordinal}")
            shards[shard] = f"{name}-{shard}:{service['spec']['ports'][0]['port']}"
        return shards

    def test_every_pod_is_a_shard_with_a_service_of_its_own(self):
        self.assertEqual(len(self.shards()), 3)
        services = [o for _, o in self.objects if o["kind"] == "Service"
                    and "statefulset.kubernetes.io/pod-name" in o["spec"]["selector"]]
        self.assertEqual(len(services), len(self.shards()), "a Service for a pod that is not")

    def test_the_proxy_routes_to_every_shard_as_render_shards_writes_it(self):
        proxy = self.one("Deployment", "carc-proxy")
        nginx = proxy["spec"]["template"]["spec"]["containers"][0]
        listen = self.named_port(nginx, "http")
        shards = self.shards()
        written = self.one("ConfigMap", "carc-proxy")["data"]["shards.conf"]
        self.assertEqual(written, render_shards(listen, shards),
                         "write it again with:\n  " + render_command(listen, shards))
        mounts = {m["name"]: m for m in nginx["volumeMounts"]}
        self.assertEqual(mounts["routes"]["mountPath"], "/etc/nginx/conf.d")
        self.assertEqual(mounts["config"]["mountPath"], "/etc/nginx/nginx.conf")
        self.assertEqual(nginx["readinessProbe"]["httpGet"]["path"], "/shards")

    def test_the_proxys_main_configuration_is_composes(self):
        written = self.one("ConfigMap", "carc-proxy")["data"]["nginx.conf"]
        self.assertEqual(written, read("docker/nginx/nginx.conf"))


# ---- the entry point and the health check ------------------------------------------------------

class EntrypointTest(unittest.TestCase):
    """docker/entrypoint.sh with a stand-in carc-server that prints its arguments."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        fake = Path(self.dir.name) / "carc-server"
        fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
        fake.chmod(0o755)

    def tearDown(self):
        self.dir.cleanup()

    def run_entrypoint(self, env, *args):
        environment = {"PATH": f"{self.dir.name}:/usr/bin:/bin", **env}
        return subprocess.run(["sh", source("docker/entrypoint.sh"), *args], env=environment,
                              capture_output=True, text=True, timeout=10)

    def test_a_server_alone_gets_the_config_file_and_the_arguments(self):
        result = self.run_entrypoint({"HOSTNAME": "carc-3"}, "--log-level", "debug")
        self.assertEqual(result.stdout.split(),
                         ["--config", "/etc/carc/carc.toml", "--log-level", "debug"])

    def test_carc_shard_names_the_shard(self):
        result = self.run_entrypoint({"CARC_SHARD": "a", "CARC_SHARD_PREFIX": "s",
                                      "HOSTNAME": "carc-3"})
        self.assertEqual(result.stdout.split(),
                         ["--config", "/etc/carc/carc.toml", "--shard", "a"])

    def test_a_prefix_names_the_shard_after_the_pods_ordinal(self):
        result = self.run_entrypoint({"CARC_SHARD_PREFIX": "s", "HOSTNAME": "carc-12",
                                      "CARC_CONFIG": "/c.toml"}, "--threads", "2")
        self.assertEqual(result.stdout.split(),
                         ["--config", "/c.toml", "--shard", "s12", "--threads", "2"])

    def test_a_prefix_without_an_ordinal_stops_with_the_reason(self):
        for host in ("carc", "carc-", "carc-x1"):
            result = self.run_entrypoint({"CARC_SHARD_PREFIX": "s", "HOSTNAME": host})
            self.assertEqual(result.returncode, 2, host)
            self.assertEqual(result.stdout, "", host)
            self.assertIn(f"'{host}' does not end in -NUMBER", result.stderr)


class Answers503(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        self.send_response(503)
        self.end_headers()

    def log_message(self, *args):
        pass


class HealthCheckTest(unittest.TestCase):
    """docker/healthz.sh against a real carc-server on loopback."""

    def healthz(self, port):
        return subprocess.run(["bash", source("docker/healthz.sh"), str(port)],
                              capture_output=True, text=True, timeout=15)

    def test_healthy_while_the_server_answers_and_not_once_it_stopped(self):
        with tempfile.TemporaryDirectory() as scratch:
            server = subprocess.Popen(
                [ARGS.server, "--port", "0", "--db", f"{scratch}/games.db", "--threads", "1"],
                stderr=subprocess.PIPE, text=True)
            try:
                port = None
                deadline = time.monotonic() + 10
                while port is None and time.monotonic() < deadline:
                    line = server.stderr.readline()
                    match = re.search(r"listening on ws://127\.0\.0\.1:(\d+)/", line)
                    port = match and int(match.group(1))
                self.assertIsNotNone(port, "the server did not say its port")
                healthy = self.healthz(port)
                self.assertEqual(healthy.returncode, 0, healthy.stderr)
            finally:
                server.send_signal(signal.SIGTERM)
                self.assertEqual(server.wait(timeout=15), 0)
                server.stderr.close()
        stopped = self.healthz(port)
        self.assertEqual(stopped.returncode, 1)
        self.assertIn(f"nothing listens on port {port}", stopped.stderr)

    def test_an_answer_other_than_200_is_unhealthy(self):
        server = http.server.HTTPServer(("127.0.0.1", 0), Answers503)
        thread = threading.Thread(target=server.serve_forever)
        thread.start()
        try:
            result = self.healthz(server.server_address[1])
        finally:
            server.shutdown()
            thread.join()
            server.server_close()
        self.assertEqual(result.returncode, 1)
        self.assertIn("answered '503'", result.stderr)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", type=Path, required=True)
    parser.add_argument("--server", required=True, help="carc-server, for the health check")
    parser.add_argument("--binary", dest="binaries", action="append", required=True,
                        help="a binary the image ships (its libraries decide the packages)")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()

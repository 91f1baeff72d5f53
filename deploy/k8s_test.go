package deploy_test

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/lexflow/lexflow/api"
	"github.com/lexflow/lexflow/config"
	"github.com/lexflow/lexflow/wiring"
	"github.com/lexflow/lexflow/worker"
)

// overlays are deploy/k8s's overlays and the namespace each deploys to.
var overlays = map[string]string{"dev": "lexflow-dev", "production": "lexflow"}

// cluster is one overlay rendered: its objects decoded into the Kubernetes API's types.
type cluster struct {
	configMaps  map[string]*corev1.ConfigMap
	claims      map[string]*corev1.PersistentVolumeClaim
	services    map[string]*corev1.Service
	deployments map[string]*appsv1.Deployment
	ingresses   map[string]*networkingv1.Ingress
	budgets     map[string]*policyv1.PodDisruptionBudget
	scalers     map[string]*autoscalingv2.HorizontalPodAutoscaler
}

// render builds an overlay with kustomize, as `kubectl kustomize` does, and decodes
// every object strictly: a field the Kubernetes API does not have, or a kind or
// apiVersion this test does not know, fails it.
func render(t *testing.T, overlay, namespace string) cluster {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), filepath.Join("k8s", "overlays", overlay))
	if err != nil {
		t.Fatalf("kustomize: %v", err)
	}
	c := cluster{map[string]*corev1.ConfigMap{}, map[string]*corev1.PersistentVolumeClaim{}, map[string]*corev1.Service{},
		map[string]*appsv1.Deployment{}, map[string]*networkingv1.Ingress{}, map[string]*policyv1.PodDisruptionBudget{},
		map[string]*autoscalingv2.HorizontalPodAutoscaler{}}
	for _, r := range m.Resources() {
		raw, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		kind, version, name := r.GetKind(), r.GetApiVersion(), r.GetName()
		var obj any
		switch kind + " " + version {
		case "ConfigMap v1":
			obj = into(c.configMaps, name)
		case "PersistentVolumeClaim v1":
			obj = into(c.claims, name)
		case "Service v1":
			obj = into(c.services, name)
		case "Deployment apps/v1":
			obj = into(c.deployments, name)
		case "Ingress networking.k8s.io/v1":
			obj = into(c.ingresses, name)
		case "PodDisruptionBudget policy/v1":
			obj = into(c.budgets, name)
		case "HorizontalPodAutoscaler autoscaling/v2":
			obj = into(c.scalers, name)
		default:
			t.Errorf("%s %s (%s): a kind this test does not check", kind, name, version)
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(obj); err != nil {
			t.Errorf("%s %s is not a valid %s: %v", kind, name, version, err)
		}
		if r.GetNamespace() != namespace {
			t.Errorf("%s %s is in namespace %q, want %q", kind, name, r.GetNamespace(), namespace)
		}
	}
	return c
}

// into makes a new object of m's type, stored in m under name.
func into[T any](m map[string]*T, name string) *T {
	obj := new(T)
	m[name] = obj
	return obj
}

// TestKubernetesOverlays renders each overlay and checks what a cluster would only
// find out at run time: that the configuration starts Lexflow, that each probe asks a
// route the process serves on the port it listens on, that every reference (config,
// secret, volume, service, autoscaler and budget target) names an object that is there
// or the secret deploy/README.md says to create, and that the ingress keeps turns and event
// streams open.
func TestKubernetesOverlays(t *testing.T) {
	for overlay, namespace := range overlays {
		t.Run(overlay, func(t *testing.T) {
			c := render(t, overlay, namespace)
			cm := c.configMaps["lexflow-config"]
			if cm == nil || len(c.deployments) != 2 || len(c.services) != 1 || len(c.ingresses) != 1 || len(c.budgets) != 2 || len(c.scalers) != 2 {
				t.Fatalf("rendered %d deployments, %d services, %d ingresses, %d budgets, %d autoscalers, config %v; want the API and the worker, each with its budget and autoscaler, and the API's service and ingress",
					len(c.deployments), len(c.services), len(c.ingresses), len(c.budgets), len(c.scalers), cm != nil)
			}
			api := startsWith(t, cm.Data, "api")
			worker := startsWith(t, cm.Data, "worker")
			// Production's pinned workflows change only through worker versioning
			// (docs/workflows.md): its workers must join a Worker Deployment.
			if overlay == "production" && worker.WorkerDeployment == "" {
				t.Error("the production overlay's workers join no Worker Deployment (LEXFLOW_WORKER_DEPLOYMENT)")
			}
			checkDeployment(t, c, "lexflow-api", "api", api.HTTPAddr, api.MetricsAddr)
			checkDeployment(t, c, "lexflow-worker", "worker", worker.WorkerHTTPAddr, worker.WorkerHTTPAddr)
			checkTemporalCredentials(t, c, "lexflow-api", "api", api.TemporalAuth)
			checkTemporalCredentials(t, c, "lexflow-worker", "worker", worker.TemporalAuth)
			checkService(t, c)
			checkIngress(t, c, api)
			checkBudgetsAndScalers(t, c)
		})
	}
}

// roleSecrets are the secrets only one role's process may hold: the API signs and
// checks tokens and takes payments, the worker calls the models.
var roleSecrets = map[string][]string{
	"api":    {"LEXFLOW_JWT_SECRET", "LEXFLOW_STRIPE_KEY", "LEXFLOW_PAYMENTS_WEBHOOK_SECRET"},
	"worker": {"LEXFLOW_ASSISTANT_API_KEY", "LEXFLOW_REASONER_API_KEY"},
}

// startsWith checks that a process of role given the ConfigMap's variables, and the
// keys of the Secrets it reads (lexflow-secrets and its role's) filled in as their
// examples ask, reads only variables config knows, holds no other role's secret, and
// starts; it returns that configuration.
func startsWith(t *testing.T, data map[string]string, role string) config.Config {
	t.Helper()
	known := map[string]bool{}
	for _, v := range config.Vars {
		known[v.Name] = true
		t.Setenv(v.Name, "")
		os.Unsetenv(v.Name)
	}
	for _, example := range []string{"secrets.env.example", role + "-secrets.env.example"} {
		for key := range readEnvFile(t, filepath.Join("k8s", example)) {
			// Filled in, as the example asks: the role's client at the provider, and
			// the secrets.
			switch key {
			case "LEXFLOW_TEMPORAL_CLIENT_ID", "LEXFLOW_TEMPORAL_CLIENT_SECRET":
				t.Setenv(key, "lexflow-"+role)
			case "LEXFLOW_JWT_SECRET", "LEXFLOW_MASTER_KEY":
				t.Setenv(key, strings.Repeat("s", 64))
			}
			if !known[key] {
				t.Errorf("%s sets %s, which Lexflow does not read", example, key)
			}
			for other, keys := range roleSecrets {
				if other != role && slices.Contains(keys, key) {
					t.Errorf("%s gives the %s %s, which only the %s uses", example, role, key, other)
				}
			}
		}
	}
	for key, value := range data {
		if !known[key] {
			t.Errorf("the ConfigMap sets %s, which Lexflow does not read", key)
		}
		if slices.Contains(secrets, key) {
			t.Errorf("the ConfigMap sets the secret %s; it belongs in lexflow-secrets", key)
		}
		t.Setenv(key, value)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatalf("lexflow would not start: %v", err)
	}
	if err := wiring.RequireSecrets(cfg, role == "api"); err != nil {
		t.Errorf("the %s would stop: %v", role, err)
	}
	// A versioned worker needs a build ID the image does not record (no .git in the
	// build context): the binary here records none either.
	if _, err := worker.VersionOf(cfg.WorkerDeployment, cfg.BuildID); err != nil {
		t.Errorf("the worker would not start: %v", err)
	}
	return cfg
}

// checkDeployment checks a Deployment of the lexflow image running command, which
// serves its probes on addr and /metrics on metricsAddr.
func checkDeployment(t *testing.T, c cluster, name, command, addr, metricsAddr string) {
	t.Helper()
	d := c.deployments[name]
	if d == nil {
		t.Fatalf("no Deployment %s", name)
	}
	spec := d.Spec.Template.Spec
	for key, value := range d.Spec.Selector.MatchLabels {
		if d.Spec.Template.Labels[key] != value {
			t.Errorf("%s selects %s=%s, which its pods are not labelled with", name, key, value)
		}
	}
	if len(spec.Containers) != 1 {
		t.Fatalf("%s has %d containers, want 1", name, len(spec.Containers))
	}
	ct := spec.Containers[0]
	if !slices.Equal(ct.Args, []string{command}) || ct.Command != nil || !strings.Contains(ct.Image, "lexflow") {
		t.Errorf("%s runs %q %v %v, want the lexflow image with args [%s]", name, ct.Image, ct.Command, ct.Args, command)
	}
	var fromConfig bool
	var secretRefs []string
	for _, e := range ct.EnvFrom {
		if e.ConfigMapRef != nil && c.configMaps[e.ConfigMapRef.Name] != nil {
			fromConfig = true
		}
		if e.SecretRef != nil {
			secretRefs = append(secretRefs, e.SecretRef.Name)
		}
	}
	if want := []string{"lexflow-secrets", "lexflow-" + command + "-secrets"}; !fromConfig || !slices.Equal(secretRefs, want) {
		t.Errorf("%s takes its environment from %+v; want lexflow-config and the Secrets %v", name, ct.EnvFrom, want)
	}
	for _, e := range ct.Env {
		t.Errorf("%s sets %s itself; settings go in lexflow-config, secrets in lexflow-secrets", name, e.Name)
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("%s serves on %q: %v", name, addr, err)
	}
	for _, p := range []struct {
		probe *corev1.Probe
		path  string
	}{{ct.ReadinessProbe, "/readyz"}, {ct.LivenessProbe, "/healthz"}, {ct.StartupProbe, "/healthz"}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("%s lacks an HTTP probe of %s", name, p.path)
			continue
		}
		get := p.probe.HTTPGet
		if get.Path != p.path || containerPort(ct, get.Port.String()) != port {
			t.Errorf("%s probes %s on port %s, want %s on %s, where it serves", name, get.Path, get.Port.String(), p.path, port)
		}
		if command == "api" && !apiServes(p.path) {
			t.Errorf("%s probes %s, which is not in the API's route table", name, p.path)
		}
	}
	_, metricsPort, err := net.SplitHostPort(metricsAddr)
	if err != nil {
		t.Fatalf("%s serves /metrics on %q: %v", name, metricsAddr, err)
	}
	ann := d.Spec.Template.Annotations
	if ann["prometheus.io/scrape"] != "true" || ann["prometheus.io/path"] != "/metrics" || ann["prometheus.io/port"] != metricsPort ||
		containerPort(ct, metricsPort) != metricsPort {
		t.Errorf("%s: Prometheus scrapes %v, and the container has ports %v; want /metrics on %s, where it serves them", name, ann, ct.Ports, metricsPort)
	}
	if ct.Resources.Requests.Cpu().IsZero() || ct.Resources.Requests.Memory().IsZero() || ct.Resources.Limits.Memory().IsZero() {
		t.Errorf("%s's resources = %+v; want CPU and memory requests and a memory limit", name, ct.Resources)
	}
	if sc := spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser != 65532 {
		t.Errorf("%s's security context = %+v; want non-root as the image's user 65532", name, spec.SecurityContext)
	}
	for _, v := range spec.Volumes {
		if v.PersistentVolumeClaim != nil && c.claims[v.PersistentVolumeClaim.ClaimName] == nil {
			t.Errorf("%s mounts the claim %s, which the overlay does not make", name, v.PersistentVolumeClaim.ClaimName)
		}
	}
	if !slices.ContainsFunc(ct.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == "/data" }) {
		t.Errorf("%s mounts nothing at /data, where the image keeps the draft PDFs every replica shares", name)
	}
}

// checkTemporalCredentials (issue 36, finding 1) checks that Deployment name of
// role reaches Temporal as the locked server asks: over TLS with a client
// certificate and key, and the server CA, all from its role's own Secret
// lexflow-<role>-temporal-tls mounted read-only where the configuration looks, and
// with a client-credentials token of its role's client.
func checkTemporalCredentials(t *testing.T, c cluster, name, role string, a config.TemporalAuth) {
	t.Helper()
	if a.Cert == "" || a.Key == "" || a.CA == "" || a.TokenURL == "" || a.ClientID != "lexflow-"+role {
		t.Errorf("%s's Temporal credentials = %+v; want a client certificate, the server CA and its role's token client", name, a)
		return
	}
	spec := c.deployments[name].Spec.Template.Spec
	secretOf := map[string]string{}
	for _, v := range spec.Volumes {
		if v.Secret != nil {
			secretOf[v.Name] = v.Secret.SecretName
		}
	}
	want := "lexflow-" + role + "-temporal-tls"
	for _, file := range []string{a.Cert, a.Key, a.CA} {
		dir := filepath.Dir(file)
		found := false
		for _, m := range spec.Containers[0].VolumeMounts {
			if m.MountPath == dir && m.ReadOnly && secretOf[m.Name] == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s reads %s, but mounts no Secret %s read-only at %s", name, file, want, dir)
		}
	}
}

// containerPort is the number of a container's port named or numbered port.
func containerPort(ct corev1.Container, port string) string {
	for _, p := range ct.Ports {
		if p.Name == port || strconv.Itoa(int(p.ContainerPort)) == port {
			return strconv.Itoa(int(p.ContainerPort))
		}
	}
	return ""
}

// apiServes reports whether the API's route table has GET path.
func apiServes(path string) bool {
	return slices.ContainsFunc(api.Routes(), func(r api.Route) bool { return r.Method == "GET" && r.Path == path })
}

// checkService checks that the API's Service reaches the API's pods on a port they
// serve.
func checkService(t *testing.T, c cluster) {
	t.Helper()
	s, d := c.services["lexflow-api"], c.deployments["lexflow-api"]
	if s == nil {
		t.Fatal("no Service lexflow-api")
	}
	for key, value := range s.Spec.Selector {
		if d.Spec.Template.Labels[key] != value {
			t.Errorf("Service lexflow-api selects %s=%s, which the API's pods are not labelled with", key, value)
		}
	}
	for _, p := range s.Spec.Ports {
		if containerPort(d.Spec.Template.Spec.Containers[0], p.TargetPort.String()) == "" {
			t.Errorf("Service lexflow-api sends port %d to %s, which the API's container does not have", p.Port, p.TargetPort.String())
		}
	}
}

// checkIngress checks that the Ingress reaches the API's Service and that its proxy
// neither times out a turn nor buffers an event stream.
func checkIngress(t *testing.T, c cluster, cfg config.Config) {
	t.Helper()
	for name, ing := range c.ingresses {
		for _, rule := range ing.Spec.Rules {
			for _, p := range rule.HTTP.Paths {
				b := p.Backend.Service
				s := c.services[b.Name]
				servesPort := func(sp corev1.ServicePort) bool {
					return b.Port.Name != "" && sp.Name == b.Port.Name || b.Port.Name == "" && sp.Port == b.Port.Number
				}
				if s == nil || !slices.ContainsFunc(s.Spec.Ports, servesPort) {
					t.Errorf("Ingress %s sends %s%s to %s %+v, which is not a Service port", name, rule.Host, p.Path, b.Name, b.Port)
				}
			}
		}
		for _, key := range []string{"proxy-read-timeout", "proxy-send-timeout"} {
			secs, err := strconv.Atoi(ing.Annotations["nginx.ingress.kubernetes.io/"+key])
			if err != nil || time.Duration(secs)*time.Second < cfg.TurnTimeout {
				t.Errorf("Ingress %s: %s = %q; want at least a turn's deadline, %v", name, key, ing.Annotations["nginx.ingress.kubernetes.io/"+key], cfg.TurnTimeout)
			}
		}
		if ing.Annotations["nginx.ingress.kubernetes.io/proxy-buffering"] != "off" {
			t.Errorf("Ingress %s buffers responses, which holds back an event stream's events", name)
		}
	}
}

// checkBudgetsAndScalers checks that each disruption budget and autoscaler targets a
// Deployment, that a budget lets a drain take a pod, and that an autoscaler starts
// from the Deployment's replicas.
func checkBudgetsAndScalers(t *testing.T, c cluster) {
	t.Helper()
	for name, b := range c.budgets {
		d := c.deployments[name]
		if d == nil {
			t.Errorf("PodDisruptionBudget %s has no Deployment of its name", name)
			continue
		}
		for key, value := range b.Spec.Selector.MatchLabels {
			if d.Spec.Template.Labels[key] != value {
				t.Errorf("PodDisruptionBudget %s selects %s=%s, which %s's pods are not labelled with", name, key, value, name)
			}
		}
		if b.Spec.MinAvailable != nil && b.Spec.MinAvailable.IntValue() >= int(*d.Spec.Replicas) {
			t.Errorf("PodDisruptionBudget %s keeps %s of %d replicas available: no drain could take one", name, b.Spec.MinAvailable, *d.Spec.Replicas)
		}
	}
	for name, h := range c.scalers {
		d := c.deployments[h.Spec.ScaleTargetRef.Name]
		if d == nil || h.Spec.ScaleTargetRef.Kind != "Deployment" {
			t.Errorf("HorizontalPodAutoscaler %s scales %+v, which is not a Deployment here", name, h.Spec.ScaleTargetRef)
			continue
		}
		if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas != *d.Spec.Replicas || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
			t.Errorf("HorizontalPodAutoscaler %s scales %s from %v to %d; want from its %d replicas up", name, d.Name, h.Spec.MinReplicas, h.Spec.MaxReplicas, *d.Spec.Replicas)
		}
	}
}

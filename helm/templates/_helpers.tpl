{{/* Chart name, truncated to the 63 characters a DNS label allows. */}}
{{- define "tilegames.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: release-chart, or the release name when it already holds the chart name. */}}
{{- define "tilegames.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tilegames.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels common to every resource. */}}
{{- define "tilegames.labels" -}}
helm.sh/chart: {{ include "tilegames.chart" . }}
{{ include "tilegames.instanceLabels" . }}
app.kubernetes.io/version: {{ default .Chart.AppVersion .Values.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tilegames
{{- end }}

{{/* Selector labels of the API pods. The component keeps the migration Job's pods out of the Service. */}}
{{- define "tilegames.selectorLabels" -}}
{{ include "tilegames.instanceLabels" . }}
app.kubernetes.io/component: api
{{- end }}

{{- define "tilegames.instanceLabels" -}}
app.kubernetes.io/name: {{ include "tilegames.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "tilegames.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tilegames.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository:tag, or repository@digest when a digest is given. */}}
{{- define "tilegames.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* Fails the render unless both database URLs are given one way or the other. */}}
{{- define "tilegames.validateDatabase" -}}
{{- $db := .Values.database }}
{{- if and (not $db.url) (not $db.existingSecret) }}
{{- fail "set database.existingSecret (a Secret holding DATABASE_URL and APP_DATABASE_URL) or database.url and database.appUrl: the service must not fall back to an embedded PostgreSQL in a cluster" }}
{{- end }}
{{- if and $db.url $db.existingSecret }}
{{- fail "set only one of database.url and database.existingSecret" }}
{{- end }}
{{- if and $db.url (not $db.appUrl) }}
{{- fail "set database.appUrl, the API pods' own connection as the least-privileged role tilegames_app (e.g. postgresql://tilegames_app:PASSWORD@db:5432/games): they never get the owner's database.url" }}
{{- end }}
{{- if and $db.appUrl $db.existingSecret }}
{{- fail "database.appUrl goes with database.url; with database.existingSecret put it in that Secret under database.appExistingSecretKey" }}
{{- end }}
{{- range $name := list "DATABASE_URL" "APP_DATABASE_URL" }}
{{- if hasKey $.Values.secretEnv $name }}
{{- fail (printf "%s comes from the database values, not secretEnv" $name) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
One database URL as an EnvVar read from its Secret: (dict "root" $ "role" "owner") for
DATABASE_URL, the schema owner's (the migration Job, the pruning CronJob), or "app" for
APP_DATABASE_URL, the service role's (the API pods). "secret" names another Secret
holding the chart's keys (the migration hook's own copy).
*/}}
{{- define "tilegames.databaseEnv" -}}
{{- $db := .root.Values.database }}
{{- $owner := eq .role "owner" }}
{{- $chartKey := ternary "DATABASE_URL" "APP_DATABASE_URL" $owner -}}
- name: {{ $chartKey }}
  valueFrom:
    secretKeyRef:
      {{- if $db.existingSecret }}
      name: {{ $db.existingSecret }}
      key: {{ ternary $db.existingSecretKey $db.appExistingSecretKey $owner }}
      {{- else }}
      name: {{ default (include "tilegames.fullname" .root) .secret }}
      key: {{ $chartKey }}
      {{- end }}
{{- end }}

{{/* Whether the chart manages a Secret of its own. */}}
{{- define "tilegames.createSecret" -}}
{{- if or .Values.database.url .Values.secretEnv }}true{{ end }}
{{- end }}

{{/* The non-secret environment: config plus PORT, which always follows containerPort. */}}
{{- define "tilegames.configEnv" -}}
{{- $env := merge (dict "PORT" (toString .Values.containerPort)) (deepCopy .Values.config) }}
{{- range $key, $value := $env }}
{{ $key }}: {{ $value | toString | quote }}
{{- end }}
{{- end }}

{{/* The writable /tmp (the root filesystem is read-only). */}}
{{- define "tilegames.tmpVolume" -}}
- name: tmp
  emptyDir:
    {{- with .Values.tmpVolume.medium }}
    medium: {{ . }}
    {{- end }}
    {{- with .Values.tmpVolume.sizeLimit }}
    sizeLimit: {{ . }}
    {{- end }}
{{- end }}

{{/* Name of a pruning CronJob, (dict "root" $ "suffix" "prune-..."): 52 characters at most, as Kubernetes requires (its Jobs append a suffix). */}}
{{- define "tilegames.cronJobName" -}}
{{- printf "%s-%s" (include "tilegames.fullname" .root) .suffix | trunc 52 | trimSuffix "-" }}
{{- end }}

{{/*
A CronJob that deletes records past their retention with `python -m service.cli <command>
--older-than-hours N`, as the owner. Called with (dict "root" $ "key" "<values key>"
"command" "<cli command>" "component" "<component label>"); the values under "key" give
enabled, schedule, retentionHours and the Job's settings. Not a hook: it is installed
with the release, after the ConfigMap, Secret and ServiceAccount, so its pods are wired
exactly like the API pods.
*/}}
{{- define "tilegames.pruningCronJob" -}}
{{- $ := .root }}
{{- $job := index $.Values .key }}
{{- if $job.enabled }}
{{- include "tilegames.validateDatabase" $ }}
{{- if le (float64 $job.retentionHours) 0.0 }}
{{- fail (printf "%s.retentionHours must be greater than 0" .key) }}
{{- end }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ include "tilegames.cronJobName" (dict "root" $ "suffix" .command) }}
  labels:
    {{- include "tilegames.labels" $ | nindent 4 }}
    app.kubernetes.io/component: {{ .component }}
spec:
  schedule: {{ $job.schedule | quote }}
  {{- with $job.timeZone }}
  timeZone: {{ . | quote }}
  {{- end }}
  concurrencyPolicy: {{ $job.concurrencyPolicy }}
  {{- with $job.startingDeadlineSeconds }}
  startingDeadlineSeconds: {{ . }}
  {{- end }}
  successfulJobsHistoryLimit: {{ $job.successfulJobsHistoryLimit }}
  failedJobsHistoryLimit: {{ $job.failedJobsHistoryLimit }}
  jobTemplate:
    metadata:
      labels:
        {{- include "tilegames.labels" $ | nindent 8 }}
        app.kubernetes.io/component: {{ .component }}
    spec:
      backoffLimit: {{ $job.backoffLimit }}
      {{- with $job.activeDeadlineSeconds }}
      activeDeadlineSeconds: {{ . }}
      {{- end }}
      template:
        metadata:
          labels:
            {{- include "tilegames.labels" $ | nindent 12 }}
            app.kubernetes.io/component: {{ .component }}
          {{- with $job.podAnnotations }}
          annotations:
            {{- toYaml . | nindent 12 }}
          {{- end }}
        spec:
          restartPolicy: Never
          {{- include "tilegames.podSpecCommon" $ | nindent 10 }}
          containers:
            - name: {{ .command }}
              image: {{ include "tilegames.image" $ | quote }}
              imagePullPolicy: {{ $.Values.image.pullPolicy }}
              command:
                - python
                - -m
                - service.cli
                - {{ .command }}
                - --older-than-hours
                - {{ $job.retentionHours | toString | quote }}
              {{- include "tilegames.containerEnv" (dict "root" $ "role" "owner") | nindent 14 }}
              resources:
                {{- toYaml $job.resources | nindent 16 }}
              securityContext:
                {{- toYaml $.Values.securityContext | nindent 16 }}
              volumeMounts:
                {{- include "tilegames.volumeMounts" $ | nindent 16 }}
          volumes:
            {{- include "tilegames.volumes" $ | nindent 12 }}
          {{- with include "tilegames.podPlacement" $ | trim }}
          {{- . | nindent 10 }}
          {{- end }}
{{- end }}
{{- end }}

{{/*
Pod-level settings shared by the Deployment and the CronJob (not by the migration hook,
which runs before the chart's ServiceAccount exists).
*/}}
{{- define "tilegames.podSpecCommon" -}}
serviceAccountName: {{ include "tilegames.serviceAccountName" . }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountServiceAccountToken }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end }}

{{/*
Container environment of the Deployment and the CronJob: the ConfigMap, one database URL
("role": "app" for the API pods, "owner" for the CronJob; see tilegames.databaseEnv),
secretEnv from the chart's Secret, and the extras. Called with (dict "root" $ "role" ...).
*/}}
{{- define "tilegames.containerEnv" -}}
{{- $ := .root -}}
envFrom:
  - configMapRef:
      name: {{ include "tilegames.fullname" $ }}
  {{- with $.Values.extraEnvFrom }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
env:
  {{- include "tilegames.databaseEnv" (dict "root" $ "role" .role) | nindent 2 }}
  {{- range $key, $_ := $.Values.secretEnv }}
  - name: {{ $key }}
    valueFrom:
      secretKeyRef:
        name: {{ include "tilegames.fullname" $ }}
        key: {{ $key }}
  {{- end }}
  {{- with $.Values.extraEnv }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}

{{/* The /tmp mount plus extraVolumeMounts (container level), and the matching volumes (pod level). */}}
{{- define "tilegames.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "tilegames.volumes" -}}
{{ include "tilegames.tmpVolume" . }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Node placement shared by the Deployment and the CronJob. */}}
{{- define "tilegames.podPlacement" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

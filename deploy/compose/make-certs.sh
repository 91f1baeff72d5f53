#!/bin/sh
# Makes the certificates docker-compose.yml's Temporal runs on, into
# deploy/compose/certs (which git and the image's build context ignore), with openssl:
#   server-ca.pem    the CA of the server's own certificates
#   internode.*      the server's services among themselves (temporal-internode), and
#                    the temporal-namespace job at the internal frontend
#   frontend.*       the frontend's certificate (temporal)
#   clients-ca.pem   the CA of the frontend's clients
#   lexflow.*        Lexflow's APIs and workers
#   temporal-ui.*    the Web UI's server
# The CA keys stay in certs/ca (never mounted): keep them offline, or delete them once
# the certificates are made. Certificates last 825 days; run again to renew (the
# containers read theirs at start or, Lexflow's, at each new connection).
#
#   sh deploy/compose/make-certs.sh
set -eu
cd "$(dirname "$0")"
umask 077
mkdir -p certs/ca
days=825

ca() { # name
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days "$days" \
    -subj "/CN=lexflow $1 CA" -keyout "certs/ca/$1-ca.key" -out "certs/$1-ca.pem" 2>/dev/null
}

cert() { # ca name usage [dns]
  ext="extendedKeyUsage=$3"
  [ -n "${4:-}" ] && ext="$ext
subjectAltName=DNS:$4"
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
    -keyout "certs/$2.key" -out "certs/$2.csr" 2>/dev/null
  printf '%s\n' "$ext" > "certs/$2.ext"
  openssl x509 -req -in "certs/$2.csr" -CA "certs/$1-ca.pem" -CAkey "certs/ca/$1-ca.key" -CAcreateserial -CAserial "certs/ca/$1-ca.srl" \
    -days "$days" -extfile "certs/$2.ext" -out "certs/$2.pem" 2>/dev/null
  rm "certs/$2.csr" "certs/$2.ext"
}

ca server
ca clients
cert server internode serverAuth,clientAuth temporal-internode
cert server frontend serverAuth temporal
cert clients lexflow clientAuth
cert clients temporal-ui clientAuth
# The containers run as users of their own: they read the files, not the directory.
chmod 0644 certs/*.pem certs/*.key
echo "certificates in $(pwd)/certs"

// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: module init/exit, /sys/class/smq_iser/ctl/{add,remove}_target,
 * and the life of a host: parse, connect every session, add and scan the
 * smq host; on removal drain it, log out and tear the sessions down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/inet.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include "smq_iser.h"

struct workqueue_struct *smq_iser_wq;

static DEFINE_MUTEX(smq_iser_hosts_lock);	/* the host list, exiting */
static LIST_HEAD(smq_iser_hosts);
static bool smq_iser_exiting;
static struct device *smq_iser_ctl;

static const struct attribute_group *smq_iser_shost_groups[];

static const struct smq_host_template smq_iser_template = {
	.module = THIS_MODULE,
	.name = SMQ_ISER_NAME,
	.queuecommand = smq_iser_queuecommand,
	.eh_timed_out = smq_iser_eh_timed_out,
	.eh_abort_handler = smq_iser_eh_abort,
	.eh_device_reset_handler = smq_iser_eh_device_reset,
	.eh_target_reset_handler = smq_iser_eh_target_reset,
	.eh_host_reset_handler = smq_iser_eh_host_reset,
	.can_queue = SMQ_ISER_DEF_QD,
	.cmd_per_lun = SMQ_ISER_DEF_CMD_PER_LUN,
	.sg_tablesize = SMQ_ISER_SG_TABLESIZE,
	.max_sectors = SMQ_ISER_MAX_SECTORS,
	/* One page per registration entry: no gap inside a page boundary. */
	.virt_boundary_mask = PAGE_SIZE - 1,
	.cmd_size = sizeof(struct smq_iser_cmd),
	.shost_groups = smq_iser_shost_groups,
};

/* ---- add_target string ---------------------------------------------- */

static int smq_iser_parse_addr(const char *key, const char *val,
			       struct sockaddr_storage *ss)
{
	char addr[INET6_ADDRSTRLEN + 2], port[8] = "3260";
	const char *colon = strrchr(val, ':');
	size_t alen = strlen(val);
	unsigned int p;

	if (val[0] == '[') {
		const char *end = strchr(val, ']');

		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		alen = end - val - 1;
		val++;
		colon = end[1] ? end + 1 : NULL;
	} else if (colon && strchr(val, ':') != colon) {
		colon = NULL;		/* IPv6 without brackets: no port */
	} else if (colon) {
		alen = colon - val;
	}
	if (!alen || alen >= sizeof(addr))
		goto bad;
	memcpy(addr, val, alen);
	addr[alen] = 0;
	if (colon) {
		if (kstrtouint(colon + 1, 10, &p) || !p || p > 65535)
			goto bad;
		snprintf(port, sizeof(port), "%u", p);
	}
	if (inet_pton_with_scope(&init_net, AF_UNSPEC, addr, port, ss))
		goto bad;
	return 0;
bad:
	pr_err("add_target: %s=%s: not an IP address[:port]\n", key, val);
	return -EINVAL;
}

static int smq_iser_parse_uint(const char *key, const char *val,
			       unsigned int min, unsigned int max,
			       unsigned int *out)
{
	if (kstrtouint(val, 0, out) || *out < min || *out > max) {
		pr_err("add_target: %s=%s: must be %u..%u\n", key, val, min, max);
		return -EINVAL;
	}
	return 0;
}

static int smq_iser_parse_name(const char *key, const char *val, char *out)
{
	if (!*val || strlen(val) >= SMQ_ISER_NAME_MAX || strpbrk(val, " \t=")) {
		pr_err("add_target: %s=%s: not an iSCSI name\n", key, val);
		return -EINVAL;
	}
	strscpy(out, val, SMQ_ISER_NAME_MAX);
	return 0;
}

/* A CHAP name or secret: 1..255 bytes; a secret's value is never logged. */
static int smq_iser_parse_chap(const char *key, const char *val, char *out,
			       bool secret)
{
	size_t n = strlen(val);

	if (!n || n > SMQ_CHAP_SECRET_MAX) {
		pr_err("add_target: %s: must be 1..%u bytes\n", key,
		       SMQ_CHAP_SECRET_MAX);
		return -EINVAL;
	}
	if (!secret && strpbrk(val, " \t=")) {
		pr_err("add_target: %s=%s: not a CHAP name\n", key, val);
		return -EINVAL;
	}
	memcpy(out, val, n + 1);
	return 0;
}

enum {
	SMQ_ISER_OPT_DST, SMQ_ISER_OPT_SRC, SMQ_ISER_OPT_TARGET,
	SMQ_ISER_OPT_INITIATOR, SMQ_ISER_OPT_QUEUES, SMQ_ISER_OPT_QD,
	SMQ_ISER_OPT_CMD_PER_LUN, SMQ_ISER_OPT_REPLACEMENT,
	SMQ_ISER_OPT_NOOP_INTERVAL, SMQ_ISER_OPT_NOOP_TIMEOUT,
	SMQ_ISER_OPT_USERNAME, SMQ_ISER_OPT_PASSWORD,
	SMQ_ISER_OPT_USERNAME_IN, SMQ_ISER_OPT_PASSWORD_IN, SMQ_ISER_NR_OPTS
};

static const char *const smq_iser_opt_names[SMQ_ISER_NR_OPTS] = {
	"dst", "src", "target", "initiator", "queues", "queue_depth",
	"cmd_per_lun", "replacement_timeout", "noop_out_interval",
	"noop_out_timeout", "username", "password", "username_in",
	"password_in",
};

/* Keys a discovery string may have */
#define SMQ_ISER_DISCOVERY_OPTS	(BIT(SMQ_ISER_OPT_DST) | BIT(SMQ_ISER_OPT_SRC) | \
				 BIT(SMQ_ISER_OPT_INITIATOR) | \
				 BIT(SMQ_ISER_OPT_USERNAME) | \
				 BIT(SMQ_ISER_OPT_PASSWORD) | \
				 BIT(SMQ_ISER_OPT_USERNAME_IN) | \
				 BIT(SMQ_ISER_OPT_PASSWORD_IN))

static int smq_iser_parse_one(struct smq_iser_opts *o, int opt,
			      const char *val)
{
	const char *key = smq_iser_opt_names[opt];
	unsigned int u;
	int ret;

	switch (opt) {
	case SMQ_ISER_OPT_DST:
		return smq_iser_parse_addr(key, val, &o->dst);
	case SMQ_ISER_OPT_SRC:
		return smq_iser_parse_addr(key, val, &o->src);
	case SMQ_ISER_OPT_TARGET:
		return smq_iser_parse_name(key, val, o->target);
	case SMQ_ISER_OPT_INITIATOR:
		return smq_iser_parse_name(key, val, o->initiator);
	case SMQ_ISER_OPT_QUEUES:
		return smq_iser_parse_uint(key, val, 1, nr_cpu_ids, &o->queues);
	case SMQ_ISER_OPT_QD:
		return smq_iser_parse_uint(key, val, 1, SMQ_ISER_MAX_QD,
					   &o->queue_depth);
	case SMQ_ISER_OPT_CMD_PER_LUN:
		return smq_iser_parse_uint(key, val, 1, SMQ_ISER_MAX_QD,
					   &o->cmd_per_lun);
	case SMQ_ISER_OPT_REPLACEMENT:
		if (!strcmp(val, "-1")) {
			o->replacement_timeout = -1;
			return 0;
		}
		ret = smq_iser_parse_uint(key, val, 0, 3600, &u);
		o->replacement_timeout = u;
		return ret;
	case SMQ_ISER_OPT_NOOP_INTERVAL:
		ret = smq_iser_parse_uint(key, val, 0, SMQ_ISER_MAX_NOOP, &u);
		o->noop_out_interval = u;
		return ret;
	case SMQ_ISER_OPT_NOOP_TIMEOUT:
		ret = smq_iser_parse_uint(key, val, 1, SMQ_ISER_MAX_NOOP, &u);
		o->noop_out_timeout = u;
		return ret;
	case SMQ_ISER_OPT_USERNAME:
		return smq_iser_parse_chap(key, val, o->username, false);
	case SMQ_ISER_OPT_PASSWORD:
		return smq_iser_parse_chap(key, val, o->password, true);
	case SMQ_ISER_OPT_USERNAME_IN:
		return smq_iser_parse_chap(key, val, o->username_in, false);
	case SMQ_ISER_OPT_PASSWORD_IN:
		return smq_iser_parse_chap(key, val, o->password_in, true);
	}
	return -EINVAL;
}

/**
 * smq_iser_opts_wipe - forget the CHAP secrets of parsed options
 * @o: the options
 */
void smq_iser_opts_wipe(struct smq_iser_opts *o)
{
	memzero_explicit(o->password, sizeof(o->password));
	memzero_explicit(o->password_in, sizeof(o->password_in));
}

/* CHAP keys: a secret needs its name, mutual needs one-way, no reuse. */
static int smq_iser_check_chap(const struct smq_iser_opts *o)
{
	const char *bad = NULL;

	if (!!o->username[0] != !!o->password[0])
		bad = o->username[0] ? "password" : "username";
	else if (!!o->username_in[0] != !!o->password_in[0])
		bad = o->username_in[0] ? "password_in" : "username_in";
	else if (o->username_in[0] && !o->username[0])
		bad = "username";
	if (bad) {
		pr_err("add_target: CHAP: %s= is missing (username and password go together; username_in and password_in need them)\n",
		       bad);
		return -EINVAL;
	}
	/* RFC 7143 12.1.3: a secret is not used in both directions */
	if (o->password_in[0] && !strcmp(o->password, o->password_in)) {
		pr_err("add_target: CHAP: password_in must differ from password\n");
		return -EINVAL;
	}
	return 0;
}

/**
 * smq_iser_parse_opts - parse an add_target or discover string
 * @buf: "key=value,key=value..." (a trailing newline is ignored)
 * @o: filled with defaults and what @buf sets; @o->discovery set by the
 *	caller (before) selects the discover keys
 *
 * Keys: dst (required), target (required), src, initiator, queues,
 * queue_depth, cmd_per_lun, replacement_timeout, noop_out_interval,
 * noop_out_timeout, and the CHAP keys username, password, username_in,
 * password_in; a discover string takes
 * only dst, src, initiator and the CHAP keys.  Unknown, repeated or
 * malformed keys are refused with one line naming them (never a secret's
 * value).  The copy of @buf made here is wiped; the caller wipes @o
 * (smq_iser_opts_wipe()).
 *
 * Return: 0 or -EINVAL.
 */
int smq_iser_parse_opts(const char *buf, struct smq_iser_opts *o)
{
	bool discovery = o->discovery;
	const char *who = discovery ? "discover" : "add_target";
	char *copy, *s, *tok;
	unsigned long seen = 0;
	int ret = 0, i;

	memset(o, 0, sizeof(*o));
	o->discovery = discovery;
	o->queues = 1;
	o->queue_depth = SMQ_ISER_DEF_QD;
	o->cmd_per_lun = SMQ_ISER_DEF_CMD_PER_LUN;
	o->replacement_timeout = SMQ_ISER_DEF_REPLACEMENT;
	o->noop_out_interval = SMQ_ISER_DEF_NOOP_INTERVAL;
	o->noop_out_timeout = SMQ_ISER_DEF_NOOP_TIMEOUT;
	smq_iser_default_initiator(o->initiator);
	copy = kstrdup(buf, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	s = strim(copy);
	while (!ret && (tok = strsep(&s, ",")) != NULL) {
		char *val = strchr(tok, '=');

		if (!val) {
			pr_err("%s: '%s': not key=value\n", who, tok);
			ret = -EINVAL;
			break;
		}
		*val++ = 0;
		i = match_string(smq_iser_opt_names, SMQ_ISER_NR_OPTS, tok);
		if (i >= 0 && discovery && !(BIT(i) & SMQ_ISER_DISCOVERY_OPTS))
			i = -1;
		if (i < 0) {
			pr_err("%s: unknown key '%s'\n", who, tok);
			ret = -EINVAL;
		} else if (seen & BIT(i)) {
			pr_err("%s: key '%s' given twice\n", who, tok);
			ret = -EINVAL;
		} else {
			seen |= BIT(i);
			ret = smq_iser_parse_one(o, i, val);
		}
	}
	kfree_sensitive(copy);
	if (ret)
		return ret;
	if (discovery && !(seen & BIT(SMQ_ISER_OPT_DST))) {
		pr_err("discover: dst= is required\n");
		return -EINVAL;
	}
	if (!discovery && (!(seen & BIT(SMQ_ISER_OPT_DST)) ||
			   !(seen & BIT(SMQ_ISER_OPT_TARGET)))) {
		pr_err("add_target: dst= and target= are required\n");
		return -EINVAL;
	}
	ret = smq_iser_check_chap(o);
	if (ret)
		return ret;
	if (o->cmd_per_lun > o->queue_depth) {
		pr_err("add_target: cmd_per_lun=%u: must be <= queue_depth %u\n",
		       o->cmd_per_lun, o->queue_depth);
		return -EINVAL;
	}
	return 0;
}

/* ---- host life ---------------------------------------------------------- */

/* Stop every session for good and free the host; hosts lock held. */
static void smq_iser_host_free(struct smq_iser_host *ih, bool added)
{
	unsigned int i;

	lockdep_assert_held(&smq_iser_hosts_lock);
	WRITE_ONCE(ih->removing, true);
	/*
	 * Commands held for a session being recovered fail from now on, and
	 * an error handler waiting for one stops waiting: the drain ends.
	 */
	for (i = 0; ih->conns && i < ih->opts.queues; i++) {
		smq_iser_conn_unblock(&ih->conns[i]);
		wake_up_all(&ih->conns[i].wait);
	}
	if (added)
		smq_scsi_remove_host(ih->shost);	/* drains every command */
	for (i = 0; ih->conns && i < ih->opts.queues; i++) {
		struct smq_iser_conn *conn = &ih->conns[i];

		mutex_lock(&conn->mgmt_mutex);
		smq_iser_logout(conn);
		smq_iser_conn_stop(conn, SMQ_DID_NO_CONNECT, false);
		mutex_unlock(&conn->mgmt_mutex);
		/* Nothing can queue them any more: no CM id, no QP, no CQ. */
		cancel_delayed_work_sync(&conn->recover_work);
		cancel_delayed_work_sync(&conn->nop_work);
		cancel_delayed_work_sync(&conn->tmo_work);
		cancel_delayed_work_sync(&conn->late_work);
		smq_iser_conn_unblock(conn);
		smq_iser_conn_exit(conn);
	}
	kfree(ih->conns);
	smq_scsi_host_put(ih->shost);
	smq_iser_opts_wipe(&ih->opts);
	kfree(ih);
}

static bool smq_iser_same_target(const struct smq_iser_opts *a,
				 const struct smq_iser_opts *b)
{
	return !strcmp(a->target, b->target) &&
	       !memcmp(&a->dst, &b->dst, sizeof(a->dst));
}

/*
 * A host with its sessions' memory, not added, not logged in; hosts lock
 * held.  On failure nothing is left.
 */
static struct smq_iser_host *smq_iser_host_new(const struct smq_iser_opts *o,
					       int *err)
{
	struct smq_scsi_host *shost;
	struct smq_iser_host *ih;
	unsigned int i;
	int ret;

	lockdep_assert_held(&smq_iser_hosts_lock);
	*err = -ENOMEM;
	ih = kzalloc(sizeof(*ih), GFP_KERNEL);
	if (!ih)
		return NULL;
	ih->opts = *o;
	shost = smq_scsi_host_alloc(&smq_iser_template, sizeof(ih));
	if (!shost) {
		smq_iser_opts_wipe(&ih->opts);
		kfree(ih);
		return NULL;
	}
	*(struct smq_iser_host **)smq_shost_priv(shost) = ih;
	INIT_LIST_HEAD(&ih->entry);
	ih->shost = shost;
	shost->can_queue = o->queue_depth;
	shost->cmd_per_lun = o->cmd_per_lun;
	shost->nr_hw_queues = o->queues;
	shost->host_tagset = false;
	shost->max_channel = 0;
	shost->max_id = 1;
	shost->max_lun = 16384;
	shost->this_id = -1;

	ih->conns = kcalloc(o->queues, sizeof(*ih->conns), GFP_KERNEL);
	if (!ih->conns) {
		ret = -ENOMEM;
		goto free;
	}
	for (i = 0; i < o->queues; i++) {
		ret = smq_iser_conn_init(&ih->conns[i], ih, i);
		if (ret) {
			ih->opts.queues = i + 1;
			goto free;
		}
	}
	return ih;
free:
	*err = ret;
	smq_iser_host_free(ih, false);
	return NULL;
}

static int smq_iser_host_add(const struct smq_iser_opts *o)
{
	struct smq_iser_host *ih, *other;
	struct smq_scsi_host *shost;
	unsigned int i;
	int ret;

	lockdep_assert_held(&smq_iser_hosts_lock);
	if (smq_iser_exiting)
		return -ENODEV;
	list_for_each_entry(other, &smq_iser_hosts, entry) {
		if (smq_iser_same_target(&other->opts, o)) {
			pr_err("add_target: target=%s is already host%u\n",
			       o->target, other->shost->host_no);
			return -EEXIST;
		}
	}
	ih = smq_iser_host_new(o, &ret);
	if (!ih)
		return ret;
	shost = ih->shost;
	ret = smq_scsi_add_host(shost, smq_iser_ctl);
	if (ret)
		goto free;
	for (i = 0; i < o->queues; i++) {
		struct smq_iser_conn *conn = &ih->conns[i];

		mutex_lock(&conn->mgmt_mutex);
		ret = smq_iser_conn_start(conn);
		if (!ret)
			smq_iser_conn_up(conn);
		mutex_unlock(&conn->mgmt_mutex);
		if (ret) {
			/* An authentication failure was logged with its reason. */
			if (ret != -EACCES)
				pr_err("add_target: target=%s session %u: login failed (%d)\n",
				       o->target, i, ret);
			smq_iser_host_free(ih, true);
			return ret;
		}
	}
	list_add_tail(&ih->entry, &smq_iser_hosts);
	pr_info("host%u: %u session(s) with %s logged in\n", shost->host_no,
		o->queues, o->target);
	smq_scsi_scan_host(shost);
	return 0;
free:
	smq_iser_host_free(ih, false);
	return ret;
}

static ssize_t add_target_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct smq_iser_opts *o;
	int ret;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	ret = smq_iser_parse_opts(buf, o);
	if (!ret) {
		mutex_lock(&smq_iser_hosts_lock);
		ret = smq_iser_host_add(o);
		mutex_unlock(&smq_iser_hosts_lock);
	}
	smq_iser_opts_wipe(o);
	kfree(o);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(add_target);

/*
 * The last discovery's result, what reading ctl/discover returns; one
 * discovery at a time (it also holds the hosts lock).
 */
static DEFINE_MUTEX(smq_iser_discover_lock);	/* smq_iser_discovered */
static char *smq_iser_discovered;

/* A temporary discovery session: log in, SendTargets, log out; hosts lock. */
static int smq_iser_discover(const struct smq_iser_opts *o, char *out,
			     size_t size)
{
	struct smq_iser_host *ih;
	struct smq_iser_conn *conn;
	int ret;

	lockdep_assert_held(&smq_iser_hosts_lock);
	if (smq_iser_exiting)
		return -ENODEV;
	ih = smq_iser_host_new(o, &ret);
	if (!ih)
		return ret;
	conn = &ih->conns[0];
	mutex_lock(&conn->mgmt_mutex);
	ret = smq_iser_conn_start(conn);
	if (!ret)
		ret = smq_iser_sendtargets(conn, out, size);
	mutex_unlock(&conn->mgmt_mutex);
	smq_iser_host_free(ih, false);	/* logs out, tears down */
	return ret;
}

static ssize_t discover_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct smq_iser_opts *o;
	char *out;
	int ret;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	out = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!o || !out) {
		kfree(o);
		kfree(out);
		return -ENOMEM;
	}
	o->discovery = true;
	ret = smq_iser_parse_opts(buf, o);
	if (!ret) {
		/* One session of one command: a login, a text, a logout. */
		o->queues = 1;
		o->queue_depth = 1;
		o->cmd_per_lun = 1;
		mutex_lock(&smq_iser_hosts_lock);
		ret = smq_iser_discover(o, out, PAGE_SIZE);
		mutex_unlock(&smq_iser_hosts_lock);
	}
	smq_iser_opts_wipe(o);
	kfree(o);
	mutex_lock(&smq_iser_discover_lock);
	kfree(smq_iser_discovered);
	smq_iser_discovered = ret < 0 ? NULL : out;
	mutex_unlock(&smq_iser_discover_lock);
	if (ret < 0)
		kfree(out);
	return ret < 0 ? ret : count;
}

static ssize_t discover_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	ssize_t len;

	mutex_lock(&smq_iser_discover_lock);
	len = sysfs_emit(buf, "%s", smq_iser_discovered ?: "");
	mutex_unlock(&smq_iser_discover_lock);
	return len;
}

/* Root only: the string may hold CHAP secrets, the answer names targets. */
static DEVICE_ATTR_ADMIN_RW(discover);

static ssize_t remove_target_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct smq_iser_host *ih;
	const char *s = buf;
	unsigned int no;

	if (!strncmp(s, "host", 4))
		s += 4;
	if (kstrtouint(s, 10, &no)) {
		pr_err("remove_target: '%.*s': not a host number\n",
		       (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	mutex_lock(&smq_iser_hosts_lock);
	list_for_each_entry(ih, &smq_iser_hosts, entry) {
		if (ih->shost->host_no == no) {
			list_del(&ih->entry);
			smq_iser_host_free(ih, true);
			mutex_unlock(&smq_iser_hosts_lock);
			return count;
		}
	}
	mutex_unlock(&smq_iser_hosts_lock);
	pr_err("remove_target: host%u is not an smq_iser host\n", no);
	return -EINVAL;
}
static DEVICE_ATTR_WO(remove_target);

static struct attribute *smq_iser_ctl_attrs[] = {
	&dev_attr_add_target.attr,
	&dev_attr_remove_target.attr,
	&dev_attr_discover.attr,
	NULL,
};
ATTRIBUTE_GROUPS(smq_iser_ctl);

/* ---- host attributes (/sys/class/smq_host/hostN/iser_*) ----------------- */

/* Changed timeouts reach every session of @ih. */
static void smq_iser_host_rearm(struct smq_iser_host *ih)
{
	unsigned int i;

	for (i = 0; i < ih->opts.queues; i++)
		smq_iser_conn_rearm(&ih->conns[i]);
}

static struct smq_iser_host *smq_iser_dev_host(struct device *dev)
{
	return smq_iser_host(container_of(dev, struct smq_scsi_host, shost_dev));
}

static ssize_t iser_target_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", smq_iser_dev_host(dev)->opts.target);
}
static DEVICE_ATTR_RO(iser_target);

static ssize_t iser_portal_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &smq_iser_dev_host(dev)->opts.dst);
}
static DEVICE_ATTR_RO(iser_portal);

static ssize_t iser_sessions_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct smq_iser_host *ih = smq_iser_dev_host(dev);
	int len = 0;
	unsigned int i;

	for (i = 0; i < ih->opts.queues; i++) {
		struct smq_iser_conn *c = &ih->conns[i];

		spin_lock_bh(&c->lock);
		len += sysfs_emit_at(buf, len,
				     "%u %s isid %6phN tsih %u cmdsn %u expcmdsn %u maxcmdsn %u busy %lu/%lu/%lu reconnects %u pings %lu ping_timeouts %u stale %lu%s\n",
				     i, smq_iser_state_name(c->state), c->isid,
				     c->tsih, c->cmdsn, c->win.expcmdsn,
				     c->win.maxcmdsn, c->busy_window, c->busy_reg,
				     c->busy_post, c->reconnects, c->pings,
				     c->ping_timeouts, c->stale_rsp,
				     c->failfast ? " failfast" : "");
		spin_unlock_bh(&c->lock);
	}
	return len;
}
static DEVICE_ATTR_RO(iser_sessions);

/* A host attribute's integer in [@min, @max], or -EINVAL with one log line. */
static int smq_iser_attr_int(const char *name, const char *buf, int min,
			     int max, int *v)
{
	if (kstrtoint(buf, 10, v) || *v < min || *v > max) {
		pr_err("%s: '%.*s': must be %d..%d\n", name,
		       (int)strcspn(buf, "\n"), buf, min, max);
		return -EINVAL;
	}
	return 0;
}

/* Store a session timeout of @dev's host: @field in [@min, @max]. */
static ssize_t smq_iser_timeout_store(struct device *dev,
				      struct device_attribute *attr,
				      const char *buf, size_t count, int min,
				      int max, int *field)
{
	int v, ret;

	ret = smq_iser_attr_int(attr->attr.name, buf, min, max, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*field, v);
	smq_iser_host_rearm(smq_iser_dev_host(dev));
	return count;
}

/* Store a fault injection's count: @counter in 0..100000. */
static ssize_t smq_iser_inject_store(struct device_attribute *attr,
				     const char *buf, size_t count,
				     atomic_t *counter)
{
	int v, ret;

	ret = smq_iser_attr_int(attr->attr.name, buf, 0, 100000, &v);
	if (ret)
		return ret;
	atomic_set(counter, v);
	return count;
}

static ssize_t iser_replacement_timeout_show(struct device *dev,
					     struct device_attribute *attr,
					     char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(smq_iser_dev_host(dev)->opts.replacement_timeout));
}

static ssize_t iser_replacement_timeout_store(struct device *dev,
					      struct device_attribute *attr,
					      const char *buf, size_t count)
{
	return smq_iser_timeout_store(dev, attr, buf, count, -1, 3600,
				      &smq_iser_dev_host(dev)->opts.replacement_timeout);
}
static DEVICE_ATTR_RW(iser_replacement_timeout);

static ssize_t iser_noop_out_interval_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(smq_iser_dev_host(dev)->opts.noop_out_interval));
}

static ssize_t iser_noop_out_interval_store(struct device *dev,
					    struct device_attribute *attr,
					    const char *buf, size_t count)
{
	return smq_iser_timeout_store(dev, attr, buf, count, 0,
				      SMQ_ISER_MAX_NOOP,
				      &smq_iser_dev_host(dev)->opts.noop_out_interval);
}
static DEVICE_ATTR_RW(iser_noop_out_interval);

static ssize_t iser_noop_out_timeout_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(smq_iser_dev_host(dev)->opts.noop_out_timeout));
}

static ssize_t iser_noop_out_timeout_store(struct device *dev,
					   struct device_attribute *attr,
					   const char *buf, size_t count)
{
	return smq_iser_timeout_store(dev, attr, buf, count, 1,
				      SMQ_ISER_MAX_NOOP,
				      &smq_iser_dev_host(dev)->opts.noop_out_timeout);
}
static DEVICE_ATTR_RW(iser_noop_out_timeout);

static ssize_t iser_drop_responses_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&smq_iser_dev_host(dev)->drop_rsp));
}

static ssize_t iser_drop_responses_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	return smq_iser_inject_store(attr, buf, count,
				     &smq_iser_dev_host(dev)->drop_rsp);
}
static DEVICE_ATTR_RW(iser_drop_responses);

static ssize_t iser_late_responses_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&smq_iser_dev_host(dev)->late_rsp));
}

static ssize_t iser_late_responses_store(struct device *dev,
					 struct device_attribute *attr,
					 const char *buf, size_t count)
{
	return smq_iser_inject_store(attr, buf, count,
				     &smq_iser_dev_host(dev)->late_rsp);
}
static DEVICE_ATTR_RW(iser_late_responses);

static ssize_t iser_drop_tmf_responses_show(struct device *dev,
					    struct device_attribute *attr,
					    char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&smq_iser_dev_host(dev)->drop_tmf));
}

static ssize_t iser_drop_tmf_responses_store(struct device *dev,
					     struct device_attribute *attr,
					     const char *buf, size_t count)
{
	return smq_iser_inject_store(attr, buf, count,
				     &smq_iser_dev_host(dev)->drop_tmf);
}
static DEVICE_ATTR_RW(iser_drop_tmf_responses);

static struct attribute *smq_iser_shost_attrs[] = {
	&dev_attr_iser_target.attr,
	&dev_attr_iser_portal.attr,
	&dev_attr_iser_sessions.attr,
	&dev_attr_iser_replacement_timeout.attr,
	&dev_attr_iser_noop_out_interval.attr,
	&dev_attr_iser_noop_out_timeout.attr,
	&dev_attr_iser_drop_responses.attr,
	&dev_attr_iser_late_responses.attr,
	&dev_attr_iser_drop_tmf_responses.attr,
	NULL,
};

static const struct attribute_group smq_iser_shost_group = {
	.attrs = smq_iser_shost_attrs,
};

static const struct attribute_group *smq_iser_shost_groups[] = {
	&smq_iser_shost_group,
	NULL,
};

/* ---- module ---------------------------------------------------------------- */

static struct class smq_iser_class = {
	.name = SMQ_ISER_NAME,
};

static int __init smq_iser_init(void)
{
	int ret;

	smq_iser_wq = alloc_workqueue("smq_iser", WQ_MEM_RECLAIM, 0);
	if (!smq_iser_wq)
		return -ENOMEM;
	ret = class_register(&smq_iser_class);
	if (ret)
		goto free_wq;
	smq_iser_ctl = device_create_with_groups(&smq_iser_class, NULL,
						 MKDEV(0, 0), NULL,
						 smq_iser_ctl_groups, "ctl");
	if (IS_ERR(smq_iser_ctl)) {
		ret = PTR_ERR(smq_iser_ctl);
		goto unreg;
	}
	return 0;
unreg:
	class_unregister(&smq_iser_class);
free_wq:
	destroy_workqueue(smq_iser_wq);
	return ret;
}

static void __exit smq_iser_exit(void)
{
	struct smq_iser_host *ih, *next;

	mutex_lock(&smq_iser_hosts_lock);
	smq_iser_exiting = true;	/* no new add_target */
	list_for_each_entry_safe(ih, next, &smq_iser_hosts, entry) {
		list_del(&ih->entry);
		smq_iser_host_free(ih, true);
	}
	mutex_unlock(&smq_iser_hosts_lock);
	device_unregister(smq_iser_ctl);
	class_unregister(&smq_iser_class);
	destroy_workqueue(smq_iser_wq);
	kfree(smq_iser_discovered);
}

module_init(smq_iser_init);
module_exit(smq_iser_exit);
MODULE_DESCRIPTION("smq iSER initiator: iSCSI over RDMA for the smq SCSI midlayer");
MODULE_AUTHOR("smq developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);

// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: sysfs.  /sys/block/X/mq/<n>/ describes each hardware queue as
 * Linux does; /sys/block/X/smq/ holds the queue-level files (the kernel's
 * own queue/ directory belongs to the kernel).  See Documentation/block.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

struct smq_hctx_attr {
	struct attribute attr;
	ssize_t (*show)(struct smq_hw_ctx *hctx, char *page);
};

static ssize_t smq_hctx_attr_show(struct kobject *kobj, struct attribute *attr,
				  char *page)
{
	struct smq_hctx_attr *a = container_of(attr, struct smq_hctx_attr, attr);
	struct smq_hw_ctx *hctx = container_of(kobj, struct smq_hw_ctx, kobj);

	return a->show(hctx, page);
}

/* As Linux's mq/<n>/cpu_list: every CPU, ", " between them ("0, 1, 2"). */
static ssize_t cpu_list_show(struct smq_hw_ctx *hctx, char *page)
{
	const char *sep = "";
	unsigned int cpu;
	int len = 0;

	for_each_cpu(cpu, hctx->cpumask) {
		len += sysfs_emit_at(page, len, "%s%u", sep, cpu);
		sep = ", ";
	}
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

static ssize_t nr_tags_show(struct smq_hw_ctx *hctx, char *page)
{
	return sysfs_emit(page, "%u\n", hctx->tags->nr_tags);
}

static ssize_t nr_reserved_tags_show(struct smq_hw_ctx *hctx, char *page)
{
	return sysfs_emit(page, "%u\n", hctx->tags->nr_reserved_tags);
}

static ssize_t tags_busy_show(struct smq_hw_ctx *hctx, char *page)
{
	return sysfs_emit(page, "%u\n", smq_tags_busy(hctx->tags));
}

#define SMQ_HCTX_STAT(_n, _stat)					\
static ssize_t _n##_show(struct smq_hw_ctx *hctx, char *page)		\
{									\
	return sysfs_emit(page, "%lu\n", smq_hctx_stat(hctx, _stat));	\
}

SMQ_HCTX_STAT(queued, SMQ_HCTX_QUEUED)
SMQ_HCTX_STAT(dispatched, SMQ_HCTX_DISPATCHED)
SMQ_HCTX_STAT(direct, SMQ_HCTX_DIRECT)
SMQ_HCTX_STAT(busy, SMQ_HCTX_BUSY)
SMQ_HCTX_STAT(runs, SMQ_HCTX_RUNS)
SMQ_HCTX_STAT(polls, SMQ_HCTX_POLLS)
SMQ_HCTX_STAT(polled, SMQ_HCTX_POLLED)

static ssize_t type_show(struct smq_hw_ctx *hctx, char *page)
{
	return sysfs_emit(page, "%s\n", hctx->poll ? "poll" : "default");
}

#define SMQ_HCTX_ATTR(_n)						\
static struct smq_hctx_attr smq_hctx_attr_##_n = {			\
	.attr = { .name = __stringify(_n), .mode = 0444 },		\
	.show = _n##_show,						\
}

SMQ_HCTX_ATTR(cpu_list);
SMQ_HCTX_ATTR(nr_tags);
SMQ_HCTX_ATTR(nr_reserved_tags);
SMQ_HCTX_ATTR(tags_busy);
SMQ_HCTX_ATTR(queued);
SMQ_HCTX_ATTR(dispatched);
SMQ_HCTX_ATTR(direct);
SMQ_HCTX_ATTR(busy);
SMQ_HCTX_ATTR(runs);
SMQ_HCTX_ATTR(polls);
SMQ_HCTX_ATTR(polled);
SMQ_HCTX_ATTR(type);

static struct attribute *smq_hctx_attrs[] = {
	&smq_hctx_attr_cpu_list.attr,
	&smq_hctx_attr_nr_tags.attr,
	&smq_hctx_attr_nr_reserved_tags.attr,
	&smq_hctx_attr_tags_busy.attr,
	&smq_hctx_attr_queued.attr,
	&smq_hctx_attr_dispatched.attr,
	&smq_hctx_attr_direct.attr,
	&smq_hctx_attr_busy.attr,
	&smq_hctx_attr_runs.attr,
	&smq_hctx_attr_polls.attr,
	&smq_hctx_attr_polled.attr,
	&smq_hctx_attr_type.attr,
	NULL,
};

static const struct attribute_group smq_hctx_group = {
	.attrs = smq_hctx_attrs,
};

/* The files of mq/<n>/: smq_mq.c's hardware queue kobject type has them. */
const struct attribute_group *smq_hctx_groups[] = {
	&smq_hctx_group,
	NULL,
};

const struct sysfs_ops smq_hctx_sysfs_ops = {
	.show = smq_hctx_attr_show,
};

/* The mq/ directory itself: no files, lifetime tied to the queue. */
static void smq_noop_release(struct kobject *kobj)
{
}

static const struct kobj_type smq_mq_ktype = {
	.release = smq_noop_release,
};

static ssize_t smq_queue_attr_show(struct kobject *kobj, struct attribute *attr,
				   char *page)
{
	struct smq_queue_attr *a = container_of(attr, struct smq_queue_attr, attr);
	struct smq_queue *q = container_of(kobj, struct smq_queue, smq_kobj);

	return a->show(q, page);
}

static ssize_t smq_queue_attr_store(struct kobject *kobj, struct attribute *attr,
				    const char *page, size_t count)
{
	struct smq_queue_attr *a = container_of(attr, struct smq_queue_attr, attr);
	struct smq_queue *q = container_of(kobj, struct smq_queue, smq_kobj);
	ssize_t ret;

	if (!a->store)
		return -EIO;
	mutex_lock(&q->sysfs_lock);
	ret = a->store(q, page, count);
	mutex_unlock(&q->sysfs_lock);
	return ret;
}

static ssize_t scheduler_show(struct smq_queue *q, char *page)
{
	return q->ops->sched_show(q, page);
}

static ssize_t scheduler_store(struct smq_queue *q, const char *page,
			       size_t count)
{
	int ret = q->ops->sched_switch(q, page);

	return ret ? ret : count;
}

/* Parse a value of file @name in min..max; a bad one is logged, -EINVAL. */
static int smq_parse_uint(const char *page, unsigned int min, unsigned int max,
			  const char *name, unsigned int *val)
{
	if (kstrtouint(page, 0, val) || *val < min || *val > max) {
		pr_err("%s: invalid value '%.*s' (%u..%u)\n", name,
		       (int)strcspn(page, "\n"), page, min, max);
		return -EINVAL;
	}
	return 0;
}

static ssize_t smq_store_uint(const char *page, size_t count, unsigned int max,
			      const char *name, unsigned int *val)
{
	unsigned int v;

	if (smq_parse_uint(page, 0, max, name, &v))
		return -EINVAL;
	WRITE_ONCE(*val, v);
	return count;
}

static ssize_t rq_affinity_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%u\n", q->rq_affinity);
}

static ssize_t rq_affinity_store(struct smq_queue *q, const char *page,
				 size_t count)
{
	return smq_store_uint(page, count, 2, "rq_affinity", &q->rq_affinity);
}

static ssize_t nomerges_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%u\n", q->nomerges);
}

static ssize_t nomerges_store(struct smq_queue *q, const char *page,
			      size_t count)
{
	return smq_store_uint(page, count, 2, "nomerges", &q->nomerges);
}

static ssize_t nr_requests_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%u\n", q->nr_requests);
}

static ssize_t nr_requests_store(struct smq_queue *q, const char *page,
				 size_t count)
{
	unsigned int max = q->ops->max_requests(q);
	unsigned int v;

	if (smq_parse_uint(page, 1, max, "nr_requests", &v))
		return -EINVAL;
	q->ops->set_nr_requests(q, v);
	return count;
}

/**
 * smq_mq_max_requests - the largest nr_requests a multiqueue queue takes
 * @q: multiqueue queue
 *
 * Return: the tag set's depth.
 */
unsigned int smq_mq_max_requests(struct smq_queue *q)
{
	return q->tag_set->queue_depth;
}

static ssize_t nr_hw_queues_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%u\n", q->nr_hw_queues);
}

static ssize_t queue_mode_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%s\n", q->ops->name);
}

static ssize_t host_tagset_show(struct smq_queue *q, char *page)
{
	return sysfs_emit(page, "%d\n",
			  !!(q->tag_set->flags & SMQ_SET_HOST_TAGSET));
}

#define SMQ_QUEUE_RO(_n)						\
static struct smq_queue_attr smq_queue_attr_##_n = {			\
	.attr = { .name = __stringify(_n), .mode = 0444 },		\
	.show = _n##_show,						\
}

#define SMQ_QUEUE_RW(_n)						\
static struct smq_queue_attr smq_queue_attr_##_n = {			\
	.attr = { .name = __stringify(_n), .mode = 0644 },		\
	.show = _n##_show,						\
	.store = _n##_store,						\
}

SMQ_QUEUE_RW(scheduler);
SMQ_QUEUE_RW(rq_affinity);
SMQ_QUEUE_RW(nomerges);
SMQ_QUEUE_RW(nr_requests);
SMQ_QUEUE_RO(nr_hw_queues);
SMQ_QUEUE_RO(queue_mode);
SMQ_QUEUE_RO(host_tagset);

static struct attribute *smq_queue_attrs[] = {
	&smq_queue_attr_scheduler.attr,
	&smq_queue_attr_rq_affinity.attr,
	&smq_queue_attr_nomerges.attr,
	&smq_queue_attr_nr_requests.attr,
	&smq_queue_attr_nr_hw_queues.attr,
	&smq_queue_attr_queue_mode.attr,
	&smq_queue_attr_host_tagset.attr,
	NULL,
};
ATTRIBUTE_GROUPS(smq_queue);

static const struct sysfs_ops smq_queue_sysfs_ops = {
	.show = smq_queue_attr_show,
	.store = smq_queue_attr_store,
};

static const struct kobj_type smq_queue_ktype = {
	.sysfs_ops = &smq_queue_sysfs_ops,
	.default_groups = smq_queue_groups,
	.release = smq_noop_release,
};

/*
 * iosched/ files take only the scheduler's own lock, never q->sysfs_lock:
 * a scheduler switch (under sysfs_lock) removes this directory and waits
 * for its readers and writers.
 */
static ssize_t smq_iosched_attr_show(struct kobject *kobj,
				     struct attribute *attr, char *page)
{
	struct smq_queue_attr *a = container_of(attr, struct smq_queue_attr, attr);
	struct smq_queue *q = container_of(kobj, struct smq_queue, iosched_kobj);

	return a->show(q, page);
}

static ssize_t smq_iosched_attr_store(struct kobject *kobj,
				      struct attribute *attr, const char *page,
				      size_t count)
{
	struct smq_queue_attr *a = container_of(attr, struct smq_queue_attr, attr);
	struct smq_queue *q = container_of(kobj, struct smq_queue, iosched_kobj);

	return a->store ? a->store(q, page, count) : -EIO;
}

static const struct sysfs_ops smq_iosched_sysfs_ops = {
	.show = smq_iosched_attr_show,
	.store = smq_iosched_attr_store,
};

static const struct kobj_type smq_iosched_ktype = {
	.sysfs_ops = &smq_iosched_sysfs_ops,
	.release = smq_noop_release,
};

/**
 * smq_iosched_sysfs_add - create smq/iosched/ with a scheduler's files
 * @q: registered queue, its sysfs_lock held
 * @group: the scheduler's attributes
 *
 * Return: 0 or a negative errno (nothing is left behind then).
 */
int smq_iosched_sysfs_add(struct smq_queue *q,
			  const struct attribute_group *group)
{
	int ret;

	lockdep_assert_held(&q->sysfs_lock);

	/* A previous scheduler's directory used this kobject: start afresh. */
	memset(&q->iosched_kobj, 0, sizeof(q->iosched_kobj));
	ret = kobject_init_and_add(&q->iosched_kobj, &smq_iosched_ktype,
				   &q->smq_kobj, "iosched");
	if (!ret)
		ret = sysfs_create_group(&q->iosched_kobj, group);
	if (ret) {
		kobject_del(&q->iosched_kobj);
		kobject_put(&q->iosched_kobj);
		return ret;
	}
	q->iosched_group = group;
	return 0;
}

/**
 * smq_iosched_sysfs_del - remove smq/iosched/
 * @q: queue, its sysfs_lock held
 */
void smq_iosched_sysfs_del(struct smq_queue *q)
{
	lockdep_assert_held(&q->sysfs_lock);
	if (!q->iosched_group)
		return;
	sysfs_remove_group(&q->iosched_kobj, q->iosched_group);
	kobject_del(&q->iosched_kobj);
	kobject_put(&q->iosched_kobj);
	q->iosched_group = NULL;
}

/**
 * smq_hctx_kobj_del - remove a hardware queue's mq/<n>/ directory
 * @hctx: hardware queue; nothing happens if its directory was never added
 *	(a failed kobject_add() in smq_tag_set_update() only warns)
 */
void smq_hctx_kobj_del(struct smq_hw_ctx *hctx)
{
	if (hctx->kobj.state_in_sysfs)
		kobject_del(&hctx->kobj);
}

/**
 * smq_mq_sysfs_register - add mq/ and a directory per hardware queue
 * @q: multiqueue queue
 * @parent: its disk's kobject
 *
 * Return: 0 or a negative errno (nothing is left behind then).
 */
int smq_mq_sysfs_register(struct smq_queue *q, struct kobject *parent)
{
	unsigned int i;
	int ret;

	ret = kobject_init_and_add(&q->mq_kobj, &smq_mq_ktype, parent, "mq");
	if (ret)
		goto put;
	for (i = 0; i < q->nr_hw_queues; i++) {
		ret = kobject_add(&q->hctxs[i]->kobj, &q->mq_kobj, "%u", i);
		if (ret)
			goto del;
	}
	return 0;
del:
	while (i--)
		smq_hctx_kobj_del(q->hctxs[i]);
	kobject_del(&q->mq_kobj);
put:
	kobject_put(&q->mq_kobj);
	return ret;
}

/**
 * smq_mq_sysfs_unregister - remove what smq_mq_sysfs_register() added
 * @q: multiqueue queue
 */
void smq_mq_sysfs_unregister(struct smq_queue *q)
{
	unsigned int i;

	for (i = 0; i < q->nr_hw_queues; i++)
		smq_hctx_kobj_del(q->hctxs[i]);
	kobject_del(&q->mq_kobj);
	kobject_put(&q->mq_kobj);
}

/**
 * smq_queue_register - add a queue's sysfs files under its disk
 * @q: queue
 * @disk: its gendisk, already added (device_add_disk())
 *
 * Also creates /sys/kernel/debug/smq/<disk>/ (debugfs errors are
 * ignored).
 *
 * Return: 0 or a negative errno.
 */
int smq_queue_register(struct smq_queue *q, struct gendisk *disk)
{
	struct kobject *parent = &disk_to_dev(disk)->kobj;
	int ret;

	ret = kobject_init_and_add(&q->smq_kobj, &smq_queue_ktype, parent, "smq");
	if (ret) {
		kobject_put(&q->smq_kobj);
		return ret;
	}
	if (q->ops->sysfs_register) {
		ret = q->ops->sysfs_register(q, parent);
		if (ret) {
			kobject_del(&q->smq_kobj);
			kobject_put(&q->smq_kobj);
			return ret;
		}
	}
	mutex_lock(&q->sysfs_lock);
	set_bit(SMQ_Q_REGISTERED, &q->flags);
	/* A scheduler chosen at creation (smq_sched_init_queue()). */
	if (q->sched && q->sched->attrs)
		smq_iosched_sysfs_add(q, q->sched->attrs);
	smq_debugfs_register(q);
	mutex_unlock(&q->sysfs_lock);
	kobject_uevent(&q->smq_kobj, KOBJ_ADD);
	return 0;
}
EXPORT_SYMBOL_GPL(smq_queue_register);

/**
 * smq_queue_unregister - remove a queue's sysfs files (before del_gendisk)
 * @q: queue
 *
 * And its debugfs directory.  Call it before smq_queue_destroy(): the
 * files point into the queue.
 */
void smq_queue_unregister(struct smq_queue *q)
{
	/*
	 * A scheduler switch (smq/scheduler, under sysfs_lock) removes and
	 * adds smq/iosched/ and debugfs sched/: take them out under the same
	 * lock.  A switch that comes after this finds the queue unregistered
	 * and adds nothing.
	 * The smq/ files themselves go outside the lock: removing them waits
	 * for their writers, which take it.
	 */
	mutex_lock(&q->sysfs_lock);
	if (!test_and_clear_bit(SMQ_Q_REGISTERED, &q->flags)) {
		mutex_unlock(&q->sysfs_lock);
		return;
	}
	smq_iosched_sysfs_del(q);
	smq_debugfs_unregister(q);
	mutex_unlock(&q->sysfs_lock);
	if (q->ops->sysfs_unregister)
		q->ops->sysfs_unregister(q);
	kobject_del(&q->smq_kobj);
	kobject_put(&q->smq_kobj);
}
EXPORT_SYMBOL_GPL(smq_queue_unregister);

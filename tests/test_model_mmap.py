"""ACL_SIM_MMAP_WEIGHTS=1: aclmdlLoadFromFile uses the WEIGHTS section in place from a
read-only mapping of the .om (no copy into the device pool); results are unchanged."""
import sys

from conftest import run_python


def test_mapped_weights_through_acl_mdl(tmp_path):
    from test_om_reader import mlp_image

    image, _ = mlp_image(seed=5)
    path = tmp_path / "m.om"
    path.write_bytes(image)
    code = f"""
        import sys
        sys.path[:0] = {sys.path!r}
        import numpy as np, acl
        from test_om_reader import mlp_image, mlp_reference
        _, weights = mlp_image(seed=5)
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        model, ret = acl.mdl.load_from_file({str(path)!r})
        assert ret == 0, ret
        inp, _ = acl.rt.malloc(96, 0)
        out, _ = acl.rt.malloc(48, 0)
        ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(inp, 96))
        acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(out, 48))
        x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 8)
        assert acl.rt.memcpy(inp, 96, x.ctypes.data, 96, 1) == 0
        assert acl.mdl.execute(model, ds_in, ds_out) == 0
        y = np.empty((3, 4), np.float32)
        assert acl.rt.memcpy(y.ctypes.data, 48, out, 48, 2) == 0
        np.testing.assert_allclose(y, mlp_reference(x, *weights), rtol=1e-5, atol=1e-6)
        assert acl.mdl.unload(model) == 0
        print("OK")
    """
    result = run_python(code, env={"ACL_SIM_MMAP_WEIGHTS": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "OK" in result.stdout
